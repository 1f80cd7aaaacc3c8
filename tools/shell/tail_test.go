package shell

import (
	"strings"
	"testing"
)

func TestTailBuffer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		max           int
		writes        []string
		want          string
		wantTruncated bool
	}{
		{"under the limit", 10, []string{"ab\n", "cd\n"}, "ab\ncd\n", false},
		{"exactly the limit", 6, []string{"ab\n", "cd\n"}, "ab\ncd\n", false},
		{"drops the partial first line", 8, []string{"line1\n", "line2\n", "line3\n"}, "line3\n", true},
		{"one huge write", 8, []string{"aaaa\nbbbbbbbbbb\ncc\n"}, "cc\n", true},
		{"many small writes", 8, strings.Split(strings.Repeat("x\n", 100), ""), "x\nx\nx\nx\n", true},
		{"no newline to cut at", 4, []string{"abcdefgh"}, "efgh", true},
		{"write as large as the limit", 4, []string{"ab", "wxyz"}, "wxyz", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := newTailBuffer(tt.max)
			total := 0
			for _, w := range tt.writes {
				n, err := b.Write([]byte(w))
				if n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
				total += len(w)
				if cap(b.buf) > 3*(tt.max+1)+64 { // +64: allocation size classes
					t.Fatalf("buffer grew to %d bytes for a limit of %d", cap(b.buf), tt.max)
				}
			}
			if got := b.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if b.Truncated() != tt.wantTruncated || b.total != int64(total) {
				t.Errorf("Truncated() = %v total %d, want %v %d", b.Truncated(), b.total, tt.wantTruncated, total)
			}
		})
	}
}

func TestTailBufferMemoryIsBounded(t *testing.T) {
	t.Parallel()
	const max = 4096
	b := newTailBuffer(max)
	chunk := []byte(strings.Repeat("y", 700) + "\n")
	for i := 0; i < 20000; i++ { // 14 MB through a 4 KiB tail
		_, _ = b.Write(chunk)
		if cap(b.buf) > 3*max {
			t.Fatalf("after %d writes the buffer holds %d bytes for a %d-byte tail", i+1, cap(b.buf), max)
		}
	}
	if got := b.String(); len(got) > max || !strings.HasSuffix(got, string(chunk)) {
		t.Errorf("tail has %d bytes", len(got))
	}
}

func TestLastLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		n       int
		want    string
		wantCut int
	}{
		{"a\nb\nc\n", 2, "b\nc\n", 1},
		{"a\nb\nc\n", 3, "a\nb\nc\n", 0},
		{"a\nb\nc", 2, "b\nc", 1},
		{"a\nb\nc\n", 5, "a\nb\nc\n", 0},
		{"", 2, "", 0},
		{"\n\n\n", 1, "\n", 2},
	}
	for _, tt := range tests {
		got, cut := lastLines(tt.in, tt.n)
		if got != tt.want || cut != tt.wantCut {
			t.Errorf("lastLines(%q, %d) = %q, %d; want %q, %d", tt.in, tt.n, got, cut, tt.want, tt.wantCut)
		}
	}
}

func BenchmarkTailBufferWrite(b *testing.B) {
	chunk := []byte(strings.Repeat("0123456789abcdef", 2048)) // 32 KiB, io.Copy's size
	buf := newTailBuffer(DefaultMaxOutput)
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_, _ = buf.Write(chunk)
	}
}
