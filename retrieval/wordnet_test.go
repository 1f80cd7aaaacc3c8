package retrieval

import (
	"bytes"
	"compress/gzip"
	"slices"
	"strings"
	"testing"
)

func gz(t *testing.T, text string) *bytes.Reader {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b.Bytes())
}

func TestParseThesaurus(t *testing.T) {
	th, err := parseThesaurus(gz(t, "movie\tfilm flick\tproduction\nrunning\tjogging\t\nrun\tsprint\tmove\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, word     string
		wantSyn, wantH []string
	}{
		{"head word", "movie", []string{"film", "flick"}, []string{"production"}},
		{"no hypernyms", "running", []string{"jogging"}, nil},
		{"by stem when the word is not a head word", "movies", []string{"film", "flick"}, []string{"production"}},
		{"head words sharing a stem merge", "runs", []string{"jogging", "sprint"}, []string{"move"}},
		{"unknown", "zebra", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := th.related(tc.word, stem(tc.word))
			if !slices.Equal(got.syn, tc.wantSyn) || !slices.Equal(got.hyp, tc.wantH) {
				t.Errorf("related(%q) = %v / %v, want %v / %v", tc.word, got.syn, got.hyp, tc.wantSyn, tc.wantH)
			}
		})
	}
}

func TestParseThesaurusErrors(t *testing.T) {
	tests := []struct {
		name string
		in   func(*testing.T) *bytes.Reader
		want string
	}{
		{"not gzip", func(*testing.T) *bytes.Reader { return bytes.NewReader([]byte("movie\tfilm\t\n")) }, "read thesaurus"},
		{"missing column", func(t *testing.T) *bytes.Reader { return gz(t, "movie\tfilm\t\nfilm movie\n") }, "line 2"},
		{"empty head word", func(t *testing.T) *bytes.Reader { return gz(t, "\tfilm\t\n") }, "line 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseThesaurus(tc.in(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestEmbeddedWordNet(t *testing.T) {
	th, err := wordNet()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(th.byWord); n < 1000 {
		t.Errorf("embedded table has %d head words, want thousands", n)
	}
	if s := th.related("movie", stem("movie")); !slices.Contains(s.syn, "film") {
		t.Errorf("movie's synonyms %v lack film", s.syn)
	}
	again, _ := wordNet()
	if again != th {
		t.Error("the table was parsed twice")
	}
}

func TestWordNetLoadsOnlyWhenWeighted(t *testing.T) {
	docs := []Doc{{Name: "doctor_finder", Summary: "Find a doctor near you."}, {Name: "weather", Summary: "Forecast for a city."}}
	off := DefaultWeights()
	off.Synonym, off.Hypernym = 0, 0
	off.Dense = 0 // word vectors would also relate physician to doctor
	if ix := NewIndex(docs, off); ix.wn != nil {
		t.Error("index without WordNet weights holds the table")
	}
	ix := NewIndex(docs, Weights{})
	if ix.wn == nil {
		t.Fatal("default index has no WordNet table")
	}
	const q = "i should see a physician"
	if hits := ix.Search(q, 2); len(hits) == 0 || hits[0].Name != "doctor_finder" {
		t.Errorf("%q: hits %v, want doctor_finder first through WordNet's synonym", q, hits)
	}
	if hits := NewIndex(docs, off).Search(q, 2); len(hits) != 0 {
		t.Errorf("%q matched without WordNet: %v", q, hits)
	}
}

// BenchmarkLoadWordNet is the one-off cost of the first ranking that
// uses the thesaurus: unzipping and parsing the embedded table.
func BenchmarkLoadWordNet(b *testing.B) {
	for b.Loop() {
		if _, err := parseThesaurus(bytes.NewReader(wordNetGz)); err != nil {
			b.Fatal(err)
		}
	}
}
