package main

import (
	"math"
	"testing"
)

// diag is an n×n sparse diagonal matrix.
func diag(vals []float64) *csr {
	m := &csr{n: len(vals), rowPtr: make([]int, len(vals)+1)}
	for i, v := range vals {
		m.col = append(m.col, int32(i))
		m.val = append(m.val, v)
		m.rowPtr[i+1] = len(m.val)
	}
	return m
}

func TestSVDRecoversTopSingularVectors(t *testing.T) {
	vals := make([]float64, 60)
	for i := range vals {
		vals[i] = 0.01 * float64(i%7)
	}
	vals[17], vals[3], vals[42] = 9, 4, 1 // the three largest, out of order
	out := svd(diag(vals), 3)
	tests := []struct {
		dim, row int
		sigma    float64
	}{{0, 17, 9}, {1, 3, 4}, {2, 42, 1}}
	for _, tc := range tests {
		got := math.Abs(out[tc.row][tc.dim])
		if want := math.Sqrt(tc.sigma); math.Abs(got-want) > 1e-6 {
			t.Errorf("dimension %d: |u[%d]|·σ^0.5 = %.6f, want %.6f", tc.dim, tc.row, got, want)
		}
		for r := range out {
			if r != tc.row && math.Abs(out[r][tc.dim]) > 1e-6 {
				t.Errorf("dimension %d has weight %.3g on row %d, want 0", tc.dim, out[r][tc.dim], r)
			}
		}
	}
}

func TestJacobiEigen(t *testing.T) {
	a := [][]float64{{2, 1}, {1, 2}} // eigenvalues 3 and 1
	vals, vecs := jacobiEigen([][]float64{append([]float64(nil), a[0]...), append([]float64(nil), a[1]...)})
	for e, lambda := range vals {
		for i := range a {
			av := a[i][0]*vecs[0][e] + a[i][1]*vecs[1][e]
			if math.Abs(av-lambda*vecs[i][e]) > 1e-9 {
				t.Errorf("eigenpair %d (λ=%.3f) does not satisfy A·v = λ·v", e, lambda)
			}
		}
	}
	if lo, hi := math.Min(vals[0], vals[1]), math.Max(vals[0], vals[1]); math.Abs(lo-1) > 1e-9 || math.Abs(hi-3) > 1e-9 {
		t.Errorf("eigenvalues %v, want 1 and 3", vals)
	}
}

func TestFollow(t *testing.T) {
	tests := []struct {
		sym  string
		want bool
	}{{"@", true}, {"+", true}, {";c", true}, {"~", false}, {"!", false}}
	for _, tc := range tests {
		t.Run(tc.sym, func(t *testing.T) {
			if got := follow(tc.sym); got != tc.want {
				t.Errorf("follow(%q) = %v, want %v", tc.sym, got, tc.want)
			}
		})
	}
}
