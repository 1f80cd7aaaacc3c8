package main

import (
	"math"
	"math/rand/v2"
	"sort"
)

// svd returns the top dim left singular vectors of m, each scaled by the
// square root of its singular value (Levy et al.'s eigenvalue weighting
// p = 0.5). It is the randomized range finder of Halko, Martinsson and
// Tropp ("Finding structure with randomness", SIAM Review 2011) with
// oversampling and power iterations, followed by an exact eigensolution
// of the small projected matrix. The random seed is fixed so reruns give
// the same table.
func svd(m *csr, dim int) [][]float64 {
	const oversample, powerIters = 16, 4
	l := min(dim+oversample, m.n)
	rng := rand.New(rand.NewPCG(1, 2))
	// Y = A·Ω, then (A·Aᵀ)^q·Y with re-orthonormalisation.
	y := newDense(m.n, l)
	for i := range y.v {
		y.v[i] = rng.NormFloat64()
	}
	q := m.mul(y)
	orthonormalize(q)
	for range powerIters {
		z := m.mulT(q)
		orthonormalize(z)
		q = m.mul(z)
		orthonormalize(q)
	}
	// B = Qᵀ·A (l×n); C = B·Bᵀ (l×l) = W·Σ²·Wᵀ; U = Q·W.
	bt := m.mulT(q) // n×l: Aᵀ·Q = Bᵀ
	c := make([][]float64, l)
	for a := range c {
		c[a] = make([]float64, l)
	}
	for r := 0; r < bt.rows; r++ {
		row := bt.row(r)
		for a := range l {
			if row[a] == 0 {
				continue
			}
			for b := a; b < l; b++ {
				c[a][b] += row[a] * row[b]
			}
		}
	}
	for a := range l {
		for b := 0; b < a; b++ {
			c[a][b] = c[b][a]
		}
	}
	vals, vecs := jacobiEigen(c)
	order := make([]int, l)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	out := make([][]float64, m.n)
	for r := range m.n {
		qr := q.row(r)
		v := make([]float64, dim)
		for k := range dim {
			e := order[k]
			s := 0.0
			for a := range l {
				s += qr[a] * vecs[a][e]
			}
			v[k] = s * math.Pow(math.Max(vals[e], 0), 0.25) // σ^0.5 = (σ²)^0.25
		}
		out[r] = v
	}
	return out
}

// dense is a row-major matrix.
type dense struct {
	rows, cols int
	v          []float64
}

func newDense(r, c int) *dense { return &dense{r, c, make([]float64, r*c)} }

func (d *dense) row(i int) []float64 { return d.v[i*d.cols : (i+1)*d.cols] }

// mul returns m·x.
func (m *csr) mul(x *dense) *dense {
	out := newDense(m.n, x.cols)
	for i := range m.n {
		o := out.row(i)
		for p := m.rowPtr[i]; p < m.rowPtr[i+1]; p++ {
			xr, v := x.row(int(m.col[p])), m.val[p]
			for k := range o {
				o[k] += v * xr[k]
			}
		}
	}
	return out
}

// mulT returns mᵀ·x.
func (m *csr) mulT(x *dense) *dense {
	out := newDense(m.n, x.cols)
	for i := range m.n {
		xr := x.row(i)
		for p := m.rowPtr[i]; p < m.rowPtr[i+1]; p++ {
			o, v := out.row(int(m.col[p])), m.val[p]
			for k := range o {
				o[k] += v * xr[k]
			}
		}
	}
	return out
}

// orthonormalize makes the columns of d orthonormal (modified
// Gram-Schmidt, twice for stability).
func orthonormalize(d *dense) {
	col := make([]float64, d.rows)
	cols := make([][]float64, d.cols)
	for c := range d.cols {
		for r := range d.rows {
			col[r] = d.v[r*d.cols+c]
		}
		for range 2 {
			for _, prev := range cols[:c] {
				dot := 0.0
				for r, x := range col {
					dot += x * prev[r]
				}
				for r := range col {
					col[r] -= dot * prev[r]
				}
			}
		}
		norm := 0.0
		for _, x := range col {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		if norm == 0 {
			norm = 1
		}
		cols[c] = make([]float64, d.rows)
		for r, x := range col {
			cols[c][r] = x / norm
		}
	}
	for c, cv := range cols {
		for r, x := range cv {
			d.v[r*d.cols+c] = x
		}
	}
}

// jacobiEigen diagonalises the symmetric matrix a by cyclic Jacobi
// rotations and returns its eigenvalues and eigenvectors (as columns).
func jacobiEigen(a [][]float64) ([]float64, [][]float64) {
	n := len(a)
	v := make([][]float64, n)
	for i := range v {
		v[i] = make([]float64, n)
		v[i][i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for p := range n {
			for q := p + 1; q < n; q++ {
				off += a[p][q] * a[p][q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := range n {
			for q := p + 1; q < n; q++ {
				if math.Abs(a[p][q]) < 1e-300 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range n {
					akp, akq := a[k][p], a[k][q]
					a[k][p], a[k][q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := range n {
					apk, aqk := a[p][k], a[q][k]
					a[p][k], a[q][k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := range n {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p], v[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = a[i][i]
	}
	return vals, v
}
