package retrieval

import (
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
	if testing.Short() {
		t.Skip("long")
	}
	docs, qs, names := loadMetaTool(t)
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
	}
	for _, c := range cases {
		ix := newIndex(docs, c.w, c.compound, c.fuzzy)
		if c.tweak != nil {
			c.tweak(ix)
		}
		t.Logf("%-36s %s", c.name, Evaluate(names, ix.Scores, qs))
	}
}
