package retrieval

import (
	"math"
	"slices"
)

// Fusion rules for combining BM25F with word-vector similarity.
const (
	// FuseRRF is reciprocal-rank fusion, Σ 1/(k + rank), with k = 60
	// (Cormack, Clarke and Büttcher, "Reciprocal rank fusion outperforms
	// Condorcet and individual rank learning methods", SIGIR 2009).
	FuseRRF = "rrf"
	// FuseZ adds the two scores after scaling each to zero mean and unit
	// variance over the documents (z-score fusion).
	FuseZ = "z"
)

// rrfK is the constant of reciprocal-rank fusion.
const rrfK = 60

// semantic holds what the index needs to compare a query with the
// documents by word vectors.
type semantic struct {
	wv   *wordVectors
	docs [][]float32 // per document, nil when no term has a vector
	pc   []float32   // common component removed from every vector, or nil
}

// newSemantic embeds each document's terms (weighed by their field
// weight) and, when removePC, removes the documents' first principal
// component, as Arora et al.'s SIF does.
func newSemantic(wv *wordVectors, fields [][3][]string, fw [3]float64, removePC bool) *semantic {
	s := &semantic{wv: wv, docs: make([][]float32, len(fields))}
	for i, f := range fields {
		var terms []string
		var mult []float64
		for k, ts := range f {
			for _, t := range ts {
				terms = append(terms, t)
				mult = append(mult, fw[k])
			}
		}
		s.docs[i] = wv.embed(terms, mult)
	}
	if removePC {
		s.pc = firstComponent(s.docs, wv.dim)
		for _, d := range s.docs {
			s.project(d)
		}
	}
	return s
}

// project removes the common component from v and rescales it.
func (s *semantic) project(v []float32) {
	if v == nil || s.pc == nil {
		return
	}
	p := float32(dot(v, s.pc))
	for k := range v {
		v[k] -= p * s.pc[k]
	}
	normalize(v)
}

// scores are the cosines between the query's terms and each document;
// ok is false when no query term has a vector.
func (s *semantic) scores(terms []string) ([]float64, bool) {
	q := s.wv.embed(terms, nil)
	if q == nil {
		return nil, false
	}
	s.project(q)
	out := make([]float64, len(s.docs))
	for i, d := range s.docs {
		if d != nil {
			out[i] = dot(q, d)
		} else {
			out[i] = math.Inf(-1)
		}
	}
	return out, true
}

// firstComponent is the first principal direction (uncentred) of vs, by
// power iteration.
func firstComponent(vs [][]float32, dim int) []float32 {
	pc := make([]float32, dim)
	for k := range pc {
		pc[k] = 1
	}
	normalize(pc)
	next := make([]float32, dim)
	for range 50 {
		clear(next)
		for _, v := range vs {
			if v == nil {
				continue
			}
			p := float32(dot(v, pc))
			for k, x := range v {
				next[k] += p * x
			}
		}
		if !normalize(next) {
			return nil
		}
		pc, next = next, pc
	}
	return pc
}

// fuse combines the BM25F scores and the vector similarities by rule,
// weighing the similarity by dense. Documents that match no query word
// and no vector keep a score of 0.
func fuse(bm25, dense []float64, rule string, weight float64) []float64 {
	out := make([]float64, len(bm25))
	switch rule {
	case FuseZ:
		zb, zd := zscores(bm25), zscores(dense)
		lo := math.Inf(1)
		for i := range out {
			out[i] = zb[i] + weight*zd[i]
			lo = math.Min(lo, out[i])
		}
		for i := range out {
			out[i] -= lo // positive, so TopK keeps every document
			if bm25[i] <= 0 && math.IsInf(dense[i], -1) {
				out[i] = 0
			}
		}
	default:
		for i, r := range ranks(bm25) {
			if bm25[i] > 0 {
				out[i] += 1 / float64(rrfK+r)
			}
		}
		for i, r := range ranks(dense) {
			if !math.IsInf(dense[i], -1) {
				out[i] += weight / float64(rrfK+r)
			}
		}
	}
	return out
}

// ranks gives each score its 1-based rank, best first, ties by position.
func ranks(scores []float64) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	r := make([]int, len(scores))
	for pos, i := range order {
		r[i] = pos + 1
	}
	return r
}

// zscores scales the finite scores to zero mean and unit variance; -Inf
// becomes the lowest finite z-score.
func zscores(xs []float64) []float64 {
	var sum, sq float64
	n := 0
	for _, x := range xs {
		if !math.IsInf(x, 0) {
			sum += x
			sq += x * x
			n++
		}
	}
	out := make([]float64, len(xs))
	if n == 0 {
		return out
	}
	mean := sum / float64(n)
	sd := math.Sqrt(math.Max(sq/float64(n)-mean*mean, 0))
	if sd == 0 {
		sd = 1
	}
	low := math.Inf(1)
	for i, x := range xs {
		if !math.IsInf(x, 0) {
			out[i] = (x - mean) / sd
			low = math.Min(low, out[i])
		}
	}
	for i, x := range xs {
		if math.IsInf(x, 0) {
			out[i] = low
		}
	}
	return out
}
