package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestTruncate(t *testing.T) {
	t.Parallel()
	lines := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "line %d\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name      string
		in        string
		maxLines  int
		maxBytes  int
		unchanged bool
		wantCut   string
		head      string
		tail      string
	}{
		{"short stays", lines(10), 100, 1 << 10, true, "", "", ""},
		{"too many lines", lines(100), 10, 1 << 20, false, "[91 lines truncated", "line 1\n", "line 100\n"},
		{"too many bytes", lines(1000), 100000, 1000, false, "lines truncated", "line 1\n", "line 1000\n"},
		{"one huge line", strings.Repeat("a", 5000), 10, 1000, false, "bytes truncated", "aaa", "aaa"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Truncate(tc.in, tc.maxLines, tc.maxBytes)
			if tc.unchanged {
				if got != tc.in {
					t.Fatalf("changed: %q", got)
				}
				return
			}
			if !strings.Contains(got, tc.wantCut) || !strings.HasPrefix(got, tc.head) || !strings.HasSuffix(got, tc.tail) {
				t.Fatalf("got %q", got)
			}
			if len(got) > tc.maxBytes+300 || strings.Count(got, "\n") > tc.maxLines+1 {
				t.Fatalf("still too big: %d bytes, %d lines", len(got), strings.Count(got, "\n"))
			}
			if !strings.Contains(got, "narrow the request") {
				t.Fatalf("marker does not say how to get the rest: %q", got)
			}
		})
	}
}

func BenchmarkTruncate(b *testing.B) {
	in := strings.Repeat("some output line of moderate length\n", 200000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		_ = Truncate(in, MaxOutputLines, MaxOutputBytes)
	}
}
