package retrieval

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
)

//go:generate go run ./internal/genvec -dict /usr/share/wordnet -o wordvec.bin

// wordVecBin are word vectors learnt without supervision from WordNet 3.0's
// glosses (see WORDNET-LICENSE and internal/genvec): PPMI and a truncated
// SVD, one vector per Porter stem.
//
//go:embed wordvec.bin
var wordVecBin []byte

// loadWordVectors parses the embedded table on first use, not at start-up.
// The table is immutable once loaded, so the one shared copy is safe for
// concurrent use.
var loadWordVectors = sync.OnceValues(func() (*wordVectors, error) { return parseWordVectors(wordVecBin) })

// sifA is the smoothing constant of the smooth inverse frequency weight
// a/(a+p(w)) of Arora, Liang and Ma ("A simple but tough-to-beat baseline
// for sentence embeddings", ICLR 2017), who recommend 1e-3.
const sifA = 1e-3

// wordVectors maps a term (a Porter stem) to a unit vector and a weight.
type wordVectors struct {
	dim    int
	ids    map[string]int32
	vecs   []int8    // len(ids)×dim, quantised as in the file
	scale  []float32 // per row: the factor that makes it unit length
	weight []float32 // smooth inverse frequency of each term
}

// parseWordVectors reads the table genvec writes: a line "wordvec1 V D",
// V lines "term count", then V×D signed bytes.
func parseWordVectors(data []byte) (*wordVectors, error) {
	line := func() ([]string, error) {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil, io.ErrUnexpectedEOF
		}
		fs := strings.Fields(string(data[:i]))
		data = data[i+1:]
		return fs, nil
	}
	head, err := line()
	if err != nil {
		return nil, fmt.Errorf("read word vectors: header: %w", err)
	}
	if len(head) != 3 || head[0] != "wordvec1" {
		return nil, fmt.Errorf("read word vectors: header %q, want \"wordvec1 V D\"", strings.Join(head, " "))
	}
	n, err1 := strconv.Atoi(head[1])
	dim, err2 := strconv.Atoi(head[2])
	if err1 != nil || err2 != nil || n <= 0 || dim <= 0 || n > 1<<22 || dim > 4096 {
		return nil, fmt.Errorf("read word vectors: bad sizes in header %q", strings.Join(head, " "))
	}
	wv := &wordVectors{dim: dim, ids: make(map[string]int32, n), vecs: make([]int8, n*dim), scale: make([]float32, n),
		weight: make([]float32, n)}
	counts := make([]float64, n)
	total := 0.0
	for i := range n {
		fs, err := line()
		if err != nil {
			return nil, fmt.Errorf("read word vectors: term %d: %w", i+1, err)
		}
		c, cerr := strconv.Atoi(fs[len(fs)-1])
		if len(fs) != 2 || cerr != nil || c <= 0 {
			return nil, fmt.Errorf("read word vectors: term %d: want \"term count\"", i+1)
		}
		wv.ids[fs[0]] = int32(i)
		counts[i] = float64(c)
		total += float64(c)
	}
	for i, c := range counts {
		wv.weight[i] = float32(sifA / (sifA + c/total))
	}
	if len(data) != n*dim {
		return nil, fmt.Errorf("read word vectors: %d bytes of vectors, want %d vectors of %d", len(data), n, dim)
	}
	for i, b := range data {
		wv.vecs[i] = int8(b)
	}
	for i := range n {
		norm := 0.0
		for _, x := range wv.vecs[i*dim : (i+1)*dim] {
			norm += float64(x) * float64(x)
		}
		if norm > 0 {
			wv.scale[i] = float32(1 / math.Sqrt(norm))
		}
	}
	return wv, nil
}

// vector returns the unit vector and weight of term, or nil.
func (wv *wordVectors) vector(term string) ([]float32, float32) {
	i, ok := wv.ids[term]
	if !ok {
		return nil, 0
	}
	v := make([]float32, wv.dim)
	wv.addTo(v, i, 1)
	return v, wv.weight[i]
}

// addTo adds w times the unit vector of term i to v.
func (wv *wordVectors) addTo(v []float32, i int32, w float32) {
	w *= wv.scale[i]
	for k, x := range wv.vecs[int(i)*wv.dim : int(i+1)*wv.dim] {
		v[k] += w * float32(x)
	}
}

// embed is the weighted average of the vectors of terms, each weighed by
// its smooth inverse frequency times mult (1 when mult is nil), scaled to
// unit length; nil when no term has a vector.
func (wv *wordVectors) embed(terms []string, mult []float64) []float32 {
	out := make([]float32, wv.dim)
	found := false
	for j, t := range terms {
		i, ok := wv.ids[t]
		if !ok {
			continue
		}
		w := wv.weight[i]
		if mult != nil {
			w *= float32(mult[j])
		}
		found = true
		wv.addTo(out, i, w)
	}
	if !found || !normalize(out) {
		return nil
	}
	return out
}

// normalize scales v to unit length and reports whether it could.
func normalize(v []float32) bool {
	n := 0.0
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return false
	}
	inv := float32(1 / math.Sqrt(n))
	for k := range v {
		v[k] *= inv
	}
	return true
}

func dot(a, b []float32) float64 {
	s := float32(0)
	for k := range a {
		s += a[k] * b[k]
	}
	return float64(s)
}
