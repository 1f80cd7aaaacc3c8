// Package retrieval ranks tools for a task: BM25F over name, summary and
// parameter names with identifier splitting, stemming and query
// expansion, fused with the similarity of offline word vectors and
// optionally blended with a provider's embeddings.
package retrieval

import "github.com/reach-agent/reach/retrieval/internal/analysis"

// splitIdentifier breaks an identifier or a phrase into lower-case words
// (see analysis.Split).
func splitIdentifier(s string) []string { return analysis.Split(s) }

// stem is the Porter stem of a lower-case word (see analysis.Stem).
func stem(w string) string { return analysis.Stem(w) }

func isDigits(s string) bool { return analysis.IsDigits(s) }

// analyzer turns text into index terms: split, drop stop words, stem.
type analyzer struct {
	stop map[string]bool
}

func newAnalyzer() analyzer { return analyzer{stop: analysis.StopWords()} }

// terms returns the stemmed terms of text, in order, stop words removed.
func (a analyzer) terms(text string) []string { return analysis.Terms(text, a.stop) }
