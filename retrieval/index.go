package retrieval

import (
	"math"
	"sort"
	"strings"
)

// Doc is what the index knows about one tool.
type Doc struct {
	Name    string
	Summary string
	// Params are the parameter names (and, when known, their descriptions).
	Params []string
}

// Weights tune BM25F. The zero value means DefaultWeights.
type Weights struct {
	K1      float64 // term-frequency saturation
	B       float64 // length normalisation
	Name    float64 // weight of the tool name's words
	Summary float64
	Params  float64
	// Expansion weighs terms added by query expansion (related words and
	// prefix matches) against the user's own words.
	Expansion float64
	// Synonym and Hypernym weigh the WordNet thesaurus's synonyms and
	// direct hypernyms of a query word's first sense; 0 leaves the
	// table unloaded.
	Synonym, Hypernym float64
	// Feedback weighs pseudo-relevance feedback: the terms of the
	// FeedbackDocs best documents of a first pass join the query.
	Feedback     float64
	FeedbackDocs int
	// Delta is BM25+'s lower bound for a matching term (Lv and Zhai,
	// "Lower-bounding term frequency normalization", CIKM 2011), so that
	// long summaries are not pushed below documents that miss the term.
	Delta float64
	// Dense weighs the similarity of word vectors learnt from WordNet's
	// glosses (wordvec.go) in the fusion with BM25F; 0 leaves the table
	// unloaded. Fusion is the rule: FuseRRF (the default) or FuseZ.
	Dense  float64
	Fusion string
}

// DefaultWeights favour the name: a tool called "WeatherTool" is about
// weather even when its summary talks about forecasts. K1 and B are the
// usual BM25 defaults (Robertson and Zaragoza, "The Probabilistic
// Relevance Framework", 2009); the field and expansion weights are a
// priori choices, not fitted to any labelled queries. WordNet synonyms
// weigh less than the hand lexicon (0.3 against 0.4) because the table picks
// a word's first sense without looking at the context, and hypernyms half
// that again (0.15) because a broader word matches more loosely.
func DefaultWeights() Weights {
	return Weights{K1: 1.2, B: 0.75, Name: 3, Summary: 1, Params: 0.5, Expansion: 0.4, Synonym: 0.3, Hypernym: 0.15,
		Dense: 1, Fusion: FuseZ}
}

type posting struct {
	doc int
	wtf float64 // field-weighted, length-normalised term frequency
}

// Index is a BM25F index over tool documents. It is immutable once built
// and safe for concurrent searches.
type Index struct {
	an       analyzer
	lex      lexicon
	wn       *thesaurus // nil when the WordNet weights are 0
	sem      *semantic  // nil when Dense is 0
	w        Weights
	names    []string
	docTerms [][]string // distinct terms of each document
	postings map[string][]posting
	idf      map[string]float64
	vocab    []string        // sorted, for prefix matches
	known    map[string]bool // unstemmed words of the documents and lexicon, for compound splitting
	// compound and fuzzy turn on compound splitting and misspelling
	// matches; NewIndex sets both (experiments compare without).
	compound, fuzzy bool
}

// Hit is one ranked document.
type Hit struct {
	Doc   int // position in the docs given to NewIndex
	Name  string
	Score float64
}

// NewIndex builds an index over docs.
func NewIndex(docs []Doc, w Weights) *Index {
	if w == (Weights{}) {
		w = DefaultWeights()
	}
	return newIndex(docs, w, true, true)
}

func newIndex(docs []Doc, w Weights, compound, fuzzy bool) *Index {
	ix := &Index{an: newAnalyzer(), lex: newLexicon(), w: w, postings: map[string][]posting{}, idf: map[string]float64{},
		compound: compound, fuzzy: fuzzy}
	if w.Synonym > 0 || w.Hypernym > 0 {
		// The table is embedded and tested; should it fail to parse,
		// ranking goes on without it.
		ix.wn, _ = wordNet()
	}
	ix.known = ix.knownWords(docs)
	fields := make([][3][]string, len(docs))
	var avg [3]float64
	for i, d := range docs {
		ix.names = append(ix.names, d.Name)
		params := strings.Join(d.Params, " ")
		fields[i][0] = ix.compoundTerms(d.Name)
		fields[i][1] = ix.an.terms(d.Summary)
		fields[i][2] = ix.compoundTerms(params)
		for f := range avg {
			avg[f] += float64(len(fields[i][f]))
		}
	}
	for f := range avg {
		avg[f] = math.Max(1, avg[f]/math.Max(1, float64(len(docs))))
	}
	fw := [3]float64{w.Name, w.Summary, w.Params}
	for i := range docs {
		wtf := map[string]float64{}
		for f, terms := range fields[i] {
			norm := 1 - w.B + w.B*float64(len(terms))/avg[f]
			for _, t := range terms {
				wtf[t] += fw[f] / norm
			}
		}
		terms := make([]string, 0, len(wtf))
		for t, v := range wtf {
			ix.postings[t] = append(ix.postings[t], posting{doc: i, wtf: v})
			terms = append(terms, t)
		}
		sort.Strings(terms)
		ix.docTerms = append(ix.docTerms, terms)
	}
	if w.Dense > 0 {
		// Like the thesaurus: should the table fail to parse, ranking
		// goes on by words alone.
		if wv, err := loadWordVectors(); err == nil {
			ix.sem = newSemantic(wv, fields, fw, false)
		}
	}
	n := float64(len(docs))
	for t, ps := range ix.postings {
		df := float64(len(ps))
		ix.idf[t] = math.Log(1 + (n-df+0.5)/(df+0.5))
		ix.vocab = append(ix.vocab, t)
	}
	sort.Strings(ix.vocab)
	return ix
}

// Len is the number of documents.
func (ix *Index) Len() int { return len(ix.names) }

// Scores returns the BM25F score of every document for query, indexed
// like the docs given to NewIndex.
func (ix *Index) Scores(query string) []float64 {
	scores := ix.lexical(query)
	if ix.sem == nil {
		return scores
	}
	dense, ok := ix.sem.scores(ix.an.terms(query))
	if !ok {
		return scores
	}
	return fuse(scores, dense, ix.w.Fusion, ix.w.Dense)
}

// lexical returns the BM25F scores of the expanded query, with
// pseudo-relevance feedback when its weight is set.
func (ix *Index) lexical(query string) []float64 {
	q := ix.expand(query)
	scores := ix.score(q)
	if ix.w.Feedback <= 0 || ix.w.FeedbackDocs <= 0 {
		return scores
	}
	top := TopK(scores, ix.names, ix.w.FeedbackDocs)
	if len(top) == 0 {
		return scores
	}
	for _, h := range top {
		share := ix.w.Feedback * h.Score / top[0].Score / float64(len(top))
		for _, t := range ix.docTerms[h.Doc] {
			if _, own := q[t]; !own {
				q[t] += share
			}
		}
	}
	return ix.score(q)
}

func (ix *Index) score(q map[string]float64) []float64 {
	scores := make([]float64, len(ix.names))
	k1, delta := ix.w.K1, ix.w.Delta
	for t, qw := range q {
		idf := ix.idf[t]
		for _, p := range ix.postings[t] {
			scores[p.doc] += qw * idf * (p.wtf*(k1+1)/(k1+p.wtf) + delta)
		}
	}
	return scores
}

// Search returns the k best documents for query, best first; ties keep
// the documents' order. Documents that match nothing are left out.
func (ix *Index) Search(query string, k int) []Hit {
	return TopK(ix.Scores(query), ix.names, k)
}

// TopK picks the k highest positive scores, best first, ties by position.
func TopK(scores []float64, names []string, k int) []Hit {
	hits := make([]Hit, 0, len(scores))
	for i, s := range scores {
		if s > 0 {
			hits = append(hits, Hit{Doc: i, Name: names[i], Score: s})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].Score > hits[b].Score })
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// expand turns a query into weighted terms: its own stems at weight 1,
// related words from the lexicon and vocabulary terms that share a long
// prefix at the expansion weight.
func (ix *Index) expand(query string) map[string]float64 {
	out := map[string]float64{}
	add := func(t string, w float64) {
		if _, known := ix.postings[t]; !known {
			return
		}
		if w > out[t] {
			out[t] = w
		}
	}
	words := splitIdentifier(query)
	for _, word := range words {
		if ix.an.stop[word] || (len(word) < 2 && !isDigits(word)) {
			continue
		}
		t := stem(word)
		add(t, 1)
		if _, known := ix.postings[t]; !known {
			for _, m := range ix.unknownWord(word, t) {
				add(m.term, m.weight)
			}
		}
		for _, rel := range ix.lex.related(word, t) {
			for _, rt := range ix.an.terms(rel) {
				add(rt, ix.w.Expansion)
			}
		}
		wn := ix.wn.related(word, t)
		for _, rel := range wn.syn {
			for _, rt := range ix.an.terms(rel) {
				add(rt, ix.w.Synonym)
			}
		}
		for _, rel := range wn.hyp {
			for _, rt := range ix.an.terms(rel) {
				add(rt, ix.w.Hypernym)
			}
		}
		for _, v := range ix.prefixMatches(t) {
			add(v, ix.w.Expansion)
		}
	}
	return out
}

// prefixMatches finds vocabulary terms that extend t or that t extends,
// when the shorter one has at least 4 letters ("aus" is too short to
// trust; "austral" → "australia" is not).
func (ix *Index) prefixMatches(t string) []string {
	const minLen = 4
	if len(t) < minLen {
		return nil
	}
	var out []string
	i := sort.SearchStrings(ix.vocab, t)
	for ; i < len(ix.vocab) && strings.HasPrefix(ix.vocab[i], t); i++ {
		if ix.vocab[i] != t {
			out = append(out, ix.vocab[i])
		}
	}
	for n := minLen; n < len(t); n++ {
		p := t[:n]
		if j := sort.SearchStrings(ix.vocab, p); j < len(ix.vocab) && ix.vocab[j] == p {
			out = append(out, p)
		}
	}
	return out
}
