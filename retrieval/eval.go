package retrieval

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Labelled is one evaluation query and the name of the tool that answers it.
type Labelled struct {
	Query string
	Tool  string
}

// Metrics are the recall at 1, 5 and 10 and the mean reciprocal rank.
type Metrics struct {
	N                int
	R1, R5, R10, MRR float64
	Unknown          int // queries whose tool is not in the tool file
}

// String prints the metrics on one line.
func (m Metrics) String() string {
	return fmt.Sprintf("queries=%d R@1=%.3f R@5=%.3f R@10=%.3f MRR=%.3f", m.N, m.R1, m.R5, m.R10, m.MRR)
}

// Ranker ranks the documents of an evaluation for a query.
type Ranker func(query string) []float64

// Evaluate measures rank over qs; names are the documents in the order the
// ranker scores them.
func Evaluate(names []string, rank Ranker, qs []Labelled) Metrics {
	pos := map[string]int{}
	for i, n := range names {
		pos[n] = i
	}
	var m Metrics
	for _, q := range qs {
		want, ok := pos[q.Tool]
		if !ok {
			m.Unknown++
			continue
		}
		m.N++
		scores := rank(q.Query)
		r := 1 // rank of want: 1 + documents that beat it (ties go against it)
		for i, s := range scores {
			if i != want && s >= scores[want] {
				r++
			}
		}
		if scores[want] <= 0 {
			r = len(scores) + 1
		}
		if r == 1 {
			m.R1++
		}
		if r <= 5 {
			m.R5++
		}
		if r <= 10 {
			m.R10++
		}
		if r <= len(scores) {
			m.MRR += 1 / float64(r)
		}
	}
	if m.N > 0 {
		n := float64(m.N)
		m.R1, m.R5, m.R10, m.MRR = m.R1/n, m.R5/n, m.R10/n, m.MRR/n
	}
	return m
}

// LoadQueries reads a CSV of query,tool rows (a header row is skipped).
func LoadQueries(path string) ([]Labelled, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open queries: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	var out []Labelled
	for line := 1; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if len(rec) < 2 {
			return nil, fmt.Errorf("read %s: line %d has %d fields, want query,tool", path, line, len(rec))
		}
		if line == 1 && strings.EqualFold(rec[0], "query") {
			continue
		}
		out = append(out, Labelled{Query: rec[0], Tool: strings.TrimSpace(rec[1])})
	}
	return out, nil
}

// LoadDocs reads a tool file: either an object of name → description (the
// MetaTool format) or an array of tool specs with name, summary (or
// description) and a JSON-Schema parameters object.
func LoadDocs(path string) ([]Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read tools: %w", err)
	}
	var byName map[string]string
	if err := json.Unmarshal(data, &byName); err == nil {
		docs := make([]Doc, 0, len(byName))
		for n, d := range byName {
			docs = append(docs, Doc{Name: n, Summary: d})
		}
		sort.Slice(docs, func(i, j int) bool { return docs[i].Name < docs[j].Name })
		return docs, nil
	}
	var specs []struct {
		Name        string          `json:"name"`
		Summary     string          `json:"summary"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	if err := json.Unmarshal(data, &specs); err != nil {
		return nil, fmt.Errorf("read %s: want an object of name → description or an array of {name, summary, parameters}: %w", path, err)
	}
	docs := make([]Doc, 0, len(specs))
	for _, s := range specs {
		sum := s.Summary
		if sum == "" {
			sum = s.Description
		}
		docs = append(docs, Doc{Name: s.Name, Summary: sum, Params: ParamWords(s.Parameters)})
	}
	return docs, nil
}

// ParamWords extracts parameter names and descriptions from a JSON Schema
// object.
func ParamWords(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := make([]string, 0, 2*len(s.Properties))
	for name, p := range s.Properties {
		out = append(out, name)
		if p.Description != "" {
			out = append(out, p.Description)
		}
	}
	sort.Strings(out)
	return out
}

// SpecDoc is the document of a registered tool.
func SpecDoc(name, summary string, params json.RawMessage) Doc {
	return Doc{Name: name, Summary: summary, Params: ParamWords(params)}
}
