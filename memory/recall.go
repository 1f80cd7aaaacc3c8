package memory

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"
)

// Recalled is a piece of long-term memory found relevant to a query.
type Recalled struct {
	Kind    string // "fact", "note" or "snippet"
	Session int64
	Text    string
	Score   float64
}

// Recall returns the facts, notes and snippets of sessions other than
// current that are most relevant to query (BM25 over their words), best
// first, at most limit. Memory that shares no word with the query is never
// returned: long-term memory is recalled, not dumped.
func (s *Store) Recall(ctx context.Context, current int64, query string, limit int) ([]Recalled, error) {
	var docs []Recalled
	facts, err := s.Facts(ctx, 0)
	if err != nil {
		return nil, err
	}
	for _, f := range facts {
		if f.Session != current {
			docs = append(docs, Recalled{Kind: "fact", Session: f.Session, Text: f.Content})
		}
	}
	notes, err := s.Notes(ctx, 0)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		if n.Session != current {
			docs = append(docs, Recalled{Kind: "note", Session: n.Session, Text: n.Content})
		}
	}
	snips, err := s.Snippets(ctx, 0)
	if err != nil {
		return nil, err
	}
	for _, sn := range snips {
		if sn.Session != current {
			docs = append(docs, Recalled{Kind: "snippet", Session: sn.Session, Text: formatSnippet(sn)})
		}
	}
	return rank(docs, query, limit), nil
}

// rank scores docs against query with BM25 (k1 1.2, b 0.75).
func rank(docs []Recalled, query string, limit int) []Recalled {
	q := uniq(words(query))
	if len(q) == 0 || len(docs) == 0 || limit <= 0 {
		return nil
	}
	tf := make([]map[string]int, len(docs))
	df := map[string]int{}
	total := 0
	for i, d := range docs {
		ws := words(d.Text)
		total += len(ws)
		tf[i] = map[string]int{}
		for _, w := range ws {
			tf[i][w]++
		}
		for w := range tf[i] {
			df[w]++
		}
	}
	avg := float64(total) / float64(len(docs))
	const k1, b = 1.2, 0.75
	var out []Recalled
	for i, d := range docs {
		n := 0
		for _, c := range tf[i] {
			n += c
		}
		score := 0.0
		for _, w := range q {
			f := float64(tf[i][w])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (float64(len(docs))-float64(df[w])+0.5)/(float64(df[w])+0.5))
			score += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(n)/avg))
		}
		if score > 0 {
			d.Score = score
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// stopwords are too common to say anything about relevance.
var stopwords = map[string]bool{
	"the": true, "and": true, "for": true, "that": true, "this": true, "with": true, "from": true, "are": true,
	"was": true, "is": true, "in": true, "of": true, "to": true, "a": true, "an": true, "it": true, "on": true,
	"be": true, "as": true, "by": true, "or": true, "at": true, "we": true, "not": true, "all": true, "use": true,
}

// words splits text into lower-case words and identifier parts.
func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for _, part := range splitCamel(w) {
			p := strings.ToLower(part)
			if len(p) < 2 || stopwords[p] {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}

// splitCamel returns w and, when it is camelCase, its parts.
func splitCamel(w string) []string {
	out := []string{w}
	start := 0
	rs := []rune(w)
	for i := 1; i < len(rs); i++ {
		if unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1]) {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	if start > 0 {
		out = append(out, string(rs[start:]))
	}
	return out
}

func uniq(ws []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
