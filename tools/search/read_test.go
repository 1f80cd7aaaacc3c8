package search

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFile reads files around the first buffer's size: the whole file
// must come back, whatever buffer the reader was handed.
func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pattern := []byte("0123456789abcdef\n")
	content := func(n int) []byte { return bytes.Repeat(pattern, n/len(pattern)+1)[:n] }
	for _, tc := range []struct {
		name string
		size int
		buf  int // capacity of the buffer handed in
	}{
		{"empty", 0, 0},
		{"one byte", 1, 0},
		{"small", 1000, 0},
		{"one below the buffer", chunkSize - 1, 0},
		{"exactly the buffer", chunkSize, 0},
		{"one past the buffer", chunkSize + 1, 0},
		{"several buffers", 5*chunkSize + 123, 0},
		{"reused larger buffer", 100, 4 * chunkSize},
		{"reused smaller buffer", 3 * chunkSize, chunkSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := content(tc.size)
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, want, 0o644); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 0, tc.buf)
			for i := range buf[:cap(buf)] {
				buf[:cap(buf)][i] = 'X' // stale bytes must not leak into the result
			}
			for round := range 2 { // the second round reuses the grown buffer
				got, err := readFile(p, &buf)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("round %d: read %d bytes, want %d (equal prefix: %v)", round, len(got), len(want),
						bytes.HasPrefix(want, got))
				}
				if cap(buf) < len(want) {
					t.Errorf("round %d: buffer of %d bytes does not hold the %d-byte file", round, cap(buf), len(want))
				}
			}
		})
	}
}

func TestReadFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ name, path string }{
		{"missing", filepath.Join(dir, "missing.txt")},
		{"directory", dir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var buf []byte
			got, err := readFile(tc.path, &buf)
			if err == nil {
				t.Fatalf("read %q: got %d bytes and no error", tc.path, len(got))
			}
			if !bytes.Contains([]byte(err.Error()), []byte(tc.path)) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestBufferStackReuses(t *testing.T) {
	t.Parallel()
	var s bufferStack
	a, b := s.get(), s.get()
	if a == b {
		t.Fatal("two outstanding gets returned the same buffers")
	}
	a.data = make([]byte, 10)
	s.put(a)
	if got := s.get(); got != a || cap(got.data) != 10 {
		t.Errorf("get after put returned %p (cap %d), want the returned %p", got, cap(got.data), a)
	}
}
