package search

import (
	"strings"
	"testing"
)

func matchLines(n int) []outLine {
	out := make([]outLine, n)
	for i := range out {
		out[i] = outLine{Num: i + 1, Text: "x", Match: true}
	}
	return out
}

// TestFormatBeyondKeptLines checks the header once the kept-lines cap is
// reached: every match and every file with one counts, shown or not.
func TestFormatBeyondKeptLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		adds      []string // path per add; "a" brings maxKeptLines-1 lines, others 3
		header    string
		notShown  string
		shown     []string
		notListed []string
	}{
		{"under the cap", []string{"b"}, "3 matches in 1 file\n", "", []string{"b:3:x"}, nil},
		{"files past the cap count", []string{"a", "b", "c", "d", "c"},
			"100011 matches in 4 files\n", "[9 more lines not shown", []string{"a:1:x", "b:3:x"}, []string{"c:", "d:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newResults(false)
			for _, p := range tc.adds {
				n := 3
				if p == "a" {
					n = maxKeptLines - 1
				}
				r.add(p, matchLines(n))
			}
			out := r.format()
			if !strings.HasPrefix(out, tc.header) {
				t.Errorf("header %q, want %q", out[:strings.IndexByte(out, '\n')+1], tc.header)
			}
			if tc.notShown != "" && !strings.Contains(out, tc.notShown) {
				t.Errorf("output lacks %q", tc.notShown)
			}
			for _, s := range tc.shown {
				if !strings.Contains(out, "\n"+s+"\n") {
					t.Errorf("output lacks line %q", s)
				}
			}
			for _, s := range tc.notListed {
				if strings.Contains(out, "\n"+s) {
					t.Errorf("output lists %q, past the cap", s)
				}
			}
		})
	}
}
