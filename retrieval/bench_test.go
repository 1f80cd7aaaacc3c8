package retrieval

import (
	"encoding/json"
	"fmt"
	"testing"
)

// synthetic makes n tool documents with realistic names, summaries and
// parameters (a vocabulary of everyday service words, recombined).
func synthetic(n int) []Doc {
	words := []string{"weather", "forecast", "stock", "price", "flight", "hotel", "recipe", "calendar", "email", "issue",
		"repository", "pull", "request", "invoice", "payment", "translate", "image", "video", "music", "podcast",
		"news", "job", "course", "map", "route", "database", "query", "ticket", "customer", "order"}
	verbs := []string{"search", "create", "list", "update", "delete", "summarize", "convert", "analyze", "book", "track"}
	docs := make([]Doc, n)
	for i := range docs {
		v, a, b := verbs[i%len(verbs)], words[(i/len(verbs))%len(words)], words[(i*7+3)%len(words)]
		docs[i] = Doc{
			Name:    fmt.Sprintf("svc%d__%s_%s_%s", i%37, v, a, b),
			Summary: fmt.Sprintf("%s %s records by %s for the user; use when the task mentions %s or %s.", v, a, b, a, b),
			Params:  []string{a + "Id", "max_results", b + "_filter"},
		}
	}
	return docs
}

func BenchmarkRank1000Tools(b *testing.B) {
	ix := NewIndex(synthetic(1000), Weights{})
	b.ResetTimer()
	for b.Loop() {
		ix.Search("book a cheap flight and a hotel near the airport for next week", 20)
	}
}

func BenchmarkIndex1000Tools(b *testing.B) {
	docs := synthetic(1000)
	for b.Loop() {
		NewIndex(docs, Weights{})
	}
}

// BenchmarkToolBytes300 reports the bytes of tool definitions sent per
// request with 300 tools: all of them against the stable core (9
// built-ins and tool_search) plus the 20 best ranked.
func BenchmarkToolBytes300(b *testing.B) {
	type def struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	docs := synthetic(300)
	schema := func(d Doc) json.RawMessage {
		props := map[string]any{}
		for _, p := range d.Params {
			props[p] = map[string]string{"type": "string", "description": "the " + p + " to use"}
		}
		raw, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		return raw
	}
	size := func(ds []Doc) int {
		defs := make([]def, len(ds))
		for i, d := range ds {
			defs[i] = def{d.Name, d.Summary, schema(d)}
		}
		raw, _ := json.Marshal(defs)
		return len(raw)
	}
	core := synthetic(10) // stands in for the built-ins and tool_search
	all := size(append(append([]Doc(nil), core...), docs...))
	ix := NewIndex(docs, Weights{})
	var offered int
	for b.Loop() {
		hits := ix.Search("create an issue in the repository for the failing payment", 20)
		picked := append([]Doc(nil), core...)
		for _, h := range hits {
			picked = append(picked, docs[h.Doc])
		}
		offered = size(picked)
	}
	b.ReportMetric(float64(all), "bytes-all")
	b.ReportMetric(float64(offered), "bytes-offered")
	b.ReportMetric(100*(1-float64(offered)/float64(all)), "%saved")
}

// BenchmarkLoadWordVectors is the one-time cost of the first index that
// uses word vectors: decompressing and parsing the embedded table.
func BenchmarkLoadWordVectors(b *testing.B) {
	for b.Loop() {
		if _, err := parseWordVectors(wordVecBin); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndex1000ToolsWordsOnly is BenchmarkIndex1000Tools without
// word vectors, to show what embedding the documents costs.
func BenchmarkIndex1000ToolsWordsOnly(b *testing.B) {
	docs := synthetic(1000)
	w := DefaultWeights()
	w.Dense = 0
	for b.Loop() {
		NewIndex(docs, w)
	}
}
