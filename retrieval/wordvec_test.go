package retrieval

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// vecTable writes a word-vector table in genvec's format.
func vecTable(t *testing.T, header string, terms []string, vecs [][]int8) []byte {
	t.Helper()
	var raw bytes.Buffer
	raw.WriteString(header + "\n")
	for _, w := range terms {
		raw.WriteString(w + "\n")
	}
	for _, v := range vecs {
		for _, x := range v {
			raw.WriteByte(byte(x))
		}
	}
	return raw.Bytes()
}

func TestParseWordVectors(t *testing.T) {
	wv, err := parseWordVectors(vecTable(t, "wordvec1 3 2", []string{"flight 10", "plane 30", "recip 60"},
		[][]int8{{127, 0}, {90, 90}, {0, -127}}))
	if err != nil {
		t.Fatal(err)
	}
	v, w := wv.vector("plane")
	if v == nil || math.Abs(float64(v[0])-math.Sqrt(0.5)) > 1e-6 || math.Abs(float64(v[1])-math.Sqrt(0.5)) > 1e-6 {
		t.Errorf("plane = %v, want the unit vector (0.707, 0.707)", v)
	}
	// Smooth inverse frequency: the rarer term weighs more.
	_, wFlight := wv.vector("flight")
	_, wRecipe := wv.vector("recip")
	if !(wFlight > w && w > wRecipe) {
		t.Errorf("weights flight %v, plane %v, recip %v: want rarer terms to weigh more", wFlight, w, wRecipe)
	}
	if v, _ := wv.vector("zebra"); v != nil {
		t.Errorf("unknown term has a vector %v", v)
	}
	e := wv.embed([]string{"flight", "zebra"}, nil)
	if e == nil || math.Abs(float64(e[0])-1) > 1e-6 {
		t.Errorf("embed(flight, zebra) = %v, want flight's vector", e)
	}
	if e := wv.embed([]string{"zebra"}, nil); e != nil {
		t.Errorf("embed of unknown terms = %v, want nil", e)
	}
}

func TestParseWordVectorsErrors(t *testing.T) {
	tests := []struct {
		name, header string
		terms        []string
		vecs         [][]int8
		want         string
	}{
		{"wrong magic", "vectors 1 2", []string{"a 1"}, [][]int8{{1, 2}}, "header"},
		{"bad sizes", "wordvec1 x 2", []string{"a 1"}, [][]int8{{1, 2}}, "bad sizes"},
		{"bad term line", "wordvec1 1 2", []string{"a"}, [][]int8{{1, 2}}, "term 1"},
		{"short vectors", "wordvec1 2 2", []string{"a 1", "b 1"}, [][]int8{{1, 2}}, "2 vectors"},
		{"missing terms", "wordvec1 3 2", []string{"a 1", "b 1"}, nil, "term 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseWordVectors(vecTable(t, tc.header, tc.terms, tc.vecs))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one that mentions %q", err, tc.want)
			}
		})
	}
	if _, err := parseWordVectors(nil); err == nil {
		t.Error("no error for an empty table")
	}
}

// TestEmbeddedWordVectors checks that the generated table loads and that
// its neighbours make sense: a word is nearer to a related word than to
// an unrelated one.
func TestEmbeddedWordVectors(t *testing.T) {
	wv, err := loadWordVectors()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ word, near, far string }{
		{"flight", "airplane", "recipe"},
		{"song", "music", "mortgage"},
		{"lawyer", "court", "guitar"},
		{"stock", "market", "vegetable"},
	}
	for _, tc := range tests {
		t.Run(tc.word, func(t *testing.T) {
			w, n, f := vecOf(t, wv, tc.word), vecOf(t, wv, tc.near), vecOf(t, wv, tc.far)
			if dot(w, n) <= dot(w, f) {
				t.Errorf("cos(%s, %s) = %.3f ≤ cos(%s, %s) = %.3f", tc.word, tc.near, dot(w, n), tc.word, tc.far, dot(w, f))
			}
		})
	}
}

func vecOf(t *testing.T, wv *wordVectors, word string) []float32 {
	t.Helper()
	v, _ := wv.vector(stem(word))
	if v == nil {
		t.Fatalf("no vector for %q", word)
	}
	return v
}

func TestFuse(t *testing.T) {
	inf := math.Inf(-1)
	tests := []struct {
		name        string
		rule        string
		bm25, dense []float64
		above       [][2]int // pairs of documents: the first must score higher
		zero        []int    // documents left at 0
	}{
		{"rrf: high in both lists wins, a word match beats a vector match", FuseRRF,
			[]float64{3, 2, 0}, []float64{0.9, 0.1, 0.5}, [][2]int{{0, 1}, {1, 2}}, nil},
		{"rrf: no match and no vector stays 0", FuseRRF, []float64{1, 0}, []float64{0.2, inf}, nil, []int{1}},
		{"z: matched by both beats matched by one", FuseZ,
			[]float64{1, 1, 0, 0}, []float64{0.9, 0, 0.9, 0}, [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 3}}, nil},
		{"z: a strong vector match overtakes a weak word match", FuseZ,
			[]float64{4, 1, 0, 0, 0}, []float64{0.5, 0, 0.9, 0, 0}, [][2]int{{0, 2}, {2, 1}}, nil},
		{"z: no match and no vector stays 0", FuseZ, []float64{2, 0, 1}, []float64{0.5, inf, 0.1}, [][2]int{{0, 2}}, []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fuse(tc.bm25, tc.dense, tc.rule, 1)
			for _, p := range tc.above {
				if got[p[0]] <= got[p[1]] {
					t.Errorf("fused %v: want document %d above document %d", got, p[0], p[1])
				}
			}
			for _, i := range tc.zero {
				if got[i] != 0 {
					t.Errorf("fused %v: want document %d at 0", got, i)
				}
			}
		})
	}
}

// TestIndexWordVectors checks that the vectors find a tool whose
// description shares no word with the query.
func TestIndexWordVectors(t *testing.T) {
	docs := []Doc{
		{Name: "AirTravel", Summary: "Book airplane seats and compare airline fares."},
		{Name: "CookBook", Summary: "Recipes with ingredients and cooking steps."},
		{Name: "Lyrics", Summary: "Find the words of any song."},
	}
	w := DefaultWeights()
	w.Synonym, w.Hypernym = 0, 0
	ix := newIndex(docs, w, true, true)
	ix.lex = lexicon{}
	hits := ix.Search("which aviation company flies to Rome", 3)
	if len(hits) == 0 || hits[0].Name != "AirTravel" {
		t.Errorf("hits = %v, want AirTravel first", hits)
	}
	w.Dense = 0
	ix = newIndex(docs, w, true, true)
	if ix.sem != nil {
		t.Error("index with Dense 0 holds word vectors")
	}
	ix.lex = lexicon{}
	if hits := ix.Search("which aviation company flies to Rome", 3); len(hits) > 0 && hits[0].Name == "AirTravel" {
		t.Errorf("words alone rank AirTravel first (%v): the test no longer shows what the vectors add", hits)
	}
}
