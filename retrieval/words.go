package retrieval

// This file holds two dataset-independent ways to meet words that are
// spelled differently: splitting run-together compounds ("keywordexplorer",
// "themeparkhipster") into words the index already knows, and matching a
// misspelled word to a known term one or two edits away.

// minPiece is the shortest word a compound may be split into: shorter
// pieces ("a", "in", "ex") would split almost anything.
const minPiece = 3

// splitCompound splits word into the fewest known words, each at least
// minPiece letters long, and reports whether it could. A word that is
// itself known is not split.
func splitCompound(word string, known map[string]bool) ([]string, bool) {
	n := len(word)
	if n < 2*minPiece || known[word] {
		return nil, false
	}
	for i := 0; i < n; i++ {
		if word[i] < 'a' || word[i] > 'z' {
			return nil, false
		}
	}
	// best[i] is the fewest pieces covering word[:i]; from[i] where the
	// last of them starts.
	const none = -1
	best := make([]int, n+1)
	from := make([]int, n+1)
	for i := 1; i <= n; i++ {
		best[i], from[i] = none, none
	}
	for i := minPiece; i <= n; i++ {
		for j := 0; j <= i-minPiece; j++ {
			if best[j] == none || !known[word[j:i]] {
				continue
			}
			if c := best[j] + 1; best[i] == none || c < best[i] {
				best[i], from[i] = c, j
			}
		}
	}
	if best[n] == none || best[n] < 2 {
		return nil, false
	}
	var pieces []string
	for i := n; i > 0; i = from[i] {
		pieces = append([]string{word[from[i]:i]}, pieces...)
	}
	return pieces, true
}

// maxEdits is how many single-letter edits a misspelling may be from the
// term it is matched to: one for words of 5 to 8 letters, two from 9 on;
// shorter words are left alone (one edit turns "cat" into "car").
func maxEdits(n int) int {
	switch {
	case n < 5:
		return 0
	case n < 9:
		return 1
	}
	return 2
}

// withinEdits reports whether a and b are at most k edits apart
// (insertions, deletions, substitutions and adjacent transpositions: the
// optimal-string-alignment distance), stopping early once k is exceeded.
func withinEdits(a, b string, k int) bool {
	return editRows{}.within(a, b, k)
}

// editRows are the three rows withinEdits works in, reused across calls.
type editRows struct{ prev2, prev, cur []int }

func (r editRows) within(a, b string, k int) bool {
	if d := len(a) - len(b); d > k || -d > k {
		return false
	}
	if cap(r.cur) < len(b)+1 {
		r.prev2, r.prev, r.cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev2, prev, cur := r.prev2[:len(b)+1], r.prev[:len(b)+1], r.cur[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > k {
			return false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)] <= k
}

// knownWords are the words of the documents and of the lexicon, unstemmed:
// what a run-together compound may be split into.
func (ix *Index) knownWords(docs []Doc) map[string]bool {
	known := map[string]bool{}
	addText := func(s string) {
		for _, w := range splitIdentifier(s) {
			if len(w) >= minPiece && !ix.an.stop[w] {
				known[w] = true
			}
		}
	}
	for _, d := range docs {
		addText(d.Name)
		addText(d.Summary)
		for _, p := range d.Params {
			addText(p)
		}
	}
	for w := range ix.lex.byWord {
		addText(w)
	}
	return known
}

// compoundTerms are the terms of an identifier-like text (a name,
// parameter names), with each run-together compound also split into the
// known words it is made of: "themeparkhipster" adds theme, park, hipster.
func (ix *Index) compoundTerms(text string) []string {
	terms := ix.an.terms(text)
	if !ix.compound {
		return terms
	}
	for _, w := range splitIdentifier(text) {
		if pieces, ok := splitCompound(w, ix.known); ok {
			for _, p := range pieces {
				terms = append(terms, ix.an.terms(p)...)
			}
		}
	}
	return terms
}

type weighted struct {
	term   string
	weight float64
}

// unknownWord finds index terms for a query word the index does not have
// (stem t): the pieces of a compound at full weight, or else the terms a
// few edits away at the expansion weight.
func (ix *Index) unknownWord(word, t string) []weighted {
	var out []weighted
	if ix.compound {
		if pieces, ok := splitCompound(word, ix.known); ok {
			for _, p := range pieces {
				for _, pt := range ix.an.terms(p) {
					out = append(out, weighted{pt, 1})
				}
			}
			return out
		}
	}
	if !ix.fuzzy {
		return nil
	}
	k := maxEdits(len(t))
	if k == 0 {
		return nil
	}
	rows := editRows{prev2: make([]int, 64), prev: make([]int, 64), cur: make([]int, 64)}
	for _, v := range ix.vocab {
		if rows.within(t, v, k) {
			out = append(out, weighted{v, ix.w.Expansion})
		}
	}
	return out
}
