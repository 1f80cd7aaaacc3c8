package retrieval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMetaToolAblation logs the recall of each retrieval feature turned
// off or on against the defaults, so the figures in the docs can be rerun:
//
//	go test ./retrieval -run Ablation -v
//
// It asserts nothing about the dataset beyond what TestMetaToolRecall does;
// it is a measurement.
func TestMetaToolAblation(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a long measurement: run it without -short and -race")
	}
	docs, qs, names := loadMetaTool(t)
	halfA, halfB := halves(qs)
	t.Logf("columns: R@1 R@5 R@10 MRR; %d queries, halves of %d and %d", len(qs), len(halfA), len(halfB))
	def := DefaultWeights()
	with := func(f func(*Weights)) Weights { w := def; f(&w); return w }
	noLex := func(ix *Index) { ix.lex = lexicon{} }
	cases := []struct {
		name            string
		w               Weights
		compound, fuzzy bool
		tweak           func(*Index)
	}{
		{"defaults", def, true, true, nil},
		{"no compound splitting", def, false, true, nil},
		{"no misspelling match", def, true, false, nil},
		{"neither", def, false, false, nil},
		{"no lexicon", def, true, true, noLex},
		{"no lexicon, no expansion at all", with(func(w *Weights) { w.Expansion = 0 }), false, false, noLex},
		{"BM25 (delta 0)", with(func(w *Weights) { w.Delta = 0 }), true, true, nil},
		{"BM25+ delta 1", with(func(w *Weights) { w.Delta = 1 }), true, true, nil},
		{"b 0.5", with(func(w *Weights) { w.B = 0.5 }), true, true, nil},
		{"equal field weights", with(func(w *Weights) { w.Name, w.Summary, w.Params = 1, 1, 1 }), true, true, nil},
		{"(a) hand lexicon only", with(func(w *Weights) { w.Synonym, w.Hypernym = 0, 0 }), true, true, nil},
		{"(b) WordNet only (0.3/0.15)", with(func(w *Weights) { w.Synonym, w.Hypernym = 0.3, 0.15 }), true, true, noLex},
		{"(c) both (0.3/0.15)", with(func(w *Weights) { w.Synonym, w.Hypernym = 0.3, 0.15 }), true, true, nil},
		{"RM3-style feedback 10 docs, 0.5", with(func(w *Weights) { w.Feedback, w.FeedbackDocs = 0.5, 10 }), true, true, nil},
		{"no word vectors (BM25F alone)", with(func(w *Weights) { w.Dense = 0 }), true, true, nil},
		{"no lexicon, no word vectors", with(func(w *Weights) { w.Dense = 0 }), true, true, noLex},
		{"word vectors fused by RRF k=60", with(func(w *Weights) { w.Fusion = FuseRRF }), true, true, nil},
		{"word vectors with SIF component removal", def, true, true, func(ix *Index) {
			ix.sem = newSemantic(ix.sem.wv, docFields(ix, docs), [3]float64{def.Name, def.Summary, def.Params}, true)
		}},
		{"word vectors alone", def, true, true, func(ix *Index) { ix.postings = map[string][]posting{} }},
	}
	for _, c := range cases {
		ix := newIndex(docs, c.w, c.compound, c.fuzzy)
		if c.tweak != nil {
			c.tweak(ix)
		}
		a, b := Evaluate(names, ix.Scores, halfA), Evaluate(names, ix.Scores, halfB)
		t.Logf("%-40s full %s | half A %s | half B %s", c.name, short(combine(a, b)), short(a), short(b))
	}
}

// halves splits the queries at random (a fixed seed) into two halves, so
// that a choice made on one can be checked on the other.
func halves(qs []Labelled) (a, b []Labelled) {
	rng := rand.New(rand.NewPCG(2026, 6))
	for _, i := range rng.Perm(len(qs)) {
		if len(a) < len(qs)/2 {
			a = append(a, qs[i])
		} else {
			b = append(b, qs[i])
		}
	}
	return a, b
}

// combine is the metrics of the union of two disjoint query sets.
func combine(a, b Metrics) Metrics {
	n := float64(a.N + b.N)
	mix := func(x, y float64) float64 { return (x*float64(a.N) + y*float64(b.N)) / n }
	return Metrics{N: a.N + b.N, R1: mix(a.R1, b.R1), R5: mix(a.R5, b.R5), R10: mix(a.R10, b.R10), MRR: mix(a.MRR, b.MRR)}
}

func short(m Metrics) string {
	return fmt.Sprintf("%.3f %.3f %.3f %.3f", m.R1, m.R5, m.R10, m.MRR)
}

// docFields are the analysed name, summary and parameter terms of docs, as
// newIndex makes them.
func docFields(ix *Index, docs []Doc) [][3][]string {
	out := make([][3][]string, len(docs))
	for i, d := range docs {
		out[i] = [3][]string{ix.compoundTerms(d.Name), ix.an.terms(d.Summary), ix.compoundTerms(strings.Join(d.Params, " "))}
	}
	return out
}
