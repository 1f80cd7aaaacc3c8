package diffview

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	t.Parallel()
	const letters = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	tests := []struct {
		name     string
		old, new string
		context  int
		want     string
	}{
		{
			name: "identical",
			old:  "x\n", new: "x\n", context: 3,
			want: "",
		},
		{
			name:    "two hunks and a missing final newline",
			old:     letters,
			new:     "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nM\nn",
			context: 3,
			want: "--- a/x\n+++ b/x\n" +
				"@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n" +
				"@@ -10,4 +10,5 @@\n j\n k\n l\n-m\n+M\n+n\n\\ No newline at end of file\n",
		},
		{
			name: "created from empty",
			old:  "", new: "one\ntwo\n", context: 3,
			want: "--- a/x\n+++ b/x\n@@ -0,0 +1,2 @@\n+one\n+two\n",
		},
		{
			name: "emptied",
			old:  "one\ntwo\n", new: "", context: 3,
			want: "--- a/x\n+++ b/x\n@@ -1,2 +0,0 @@\n-one\n-two\n",
		},
		{
			name: "pure insertion in the middle, no context",
			old:  "a\nb\n", new: "a\nnew\nb\n", context: 0,
			want: "--- a/x\n+++ b/x\n@@ -1,0 +2 @@\n+new\n",
		},
		{
			name: "close changes merge into one hunk",
			old:  "1\n2\n3\n4\n5\n6\n7\n8\n", new: "1\nX\n3\n4\n5\n6\nY\n8\n", context: 2,
			want: "--- a/x\n+++ b/x\n@@ -1,8 +1,8 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n-7\n+Y\n 8\n",
		},
		{
			name: "only the final newline added",
			old:  "a\nb", new: "a\nb\n", context: 3,
			want: "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
		},
		{
			name: "CRLF lines are kept verbatim",
			old:  "a\r\nb\r\n", new: "a\r\nc\r\n", context: 3,
			want: "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Unified("a/x", "b/x", tt.old, tt.new, tt.context)
			if got != tt.want {
				t.Errorf("Unified() =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestStats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		old, new      string
		added, remove int
	}{
		{"same", "a\n", "a\n", 0, 0},
		{"one changed", "a\nb\n", "a\nc\n", 1, 1},
		{"appended", "a\n", "a\nb\nc\n", 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, r := Stats(tt.old, tt.new)
			if a != tt.added || r != tt.remove {
				t.Errorf("Stats() = +%d -%d, want +%d -%d", a, r, tt.added, tt.remove)
			}
		})
	}
}

// TestUnifiedApplies checks on random edits that applying the rendered
// diff to the old text gives the new text, whatever the context size.
func TestUnifiedApplies(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		old := randomText(rng)
		new := mutate(rng, old)
		context := rng.Intn(4)
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			d := Unified("a", "b", old, new, context)
			got, err := apply(old, d)
			if err != nil {
				t.Fatalf("apply: %v\nold=%q\nnew=%q\ndiff:\n%s", err, old, new, d)
			}
			if got != new {
				t.Fatalf("applied diff gives %q, want %q\ndiff:\n%s", got, new, d)
			}
		})
	}
}

func randomText(rng *rand.Rand) string {
	var b strings.Builder
	n := rng.Intn(30)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "l%d\n", rng.Intn(8))
	}
	s := b.String()
	if s != "" && rng.Intn(4) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

func mutate(rng *rand.Rand, s string) string {
	lines := splitLines(s)
	for k := rng.Intn(5); k > 0; k-- {
		switch p := rng.Intn(len(lines) + 1); rng.Intn(3) {
		case 0:
			lines = append(lines[:p], append([]string{fmt.Sprintf("n%d\n", rng.Intn(5))}, lines[p:]...)...)
		case 1:
			if p < len(lines) {
				lines = append(lines[:p], lines[p+1:]...)
			}
		default:
			if p < len(lines) {
				lines[p] = fmt.Sprintf("c%d\n", rng.Intn(5))
			}
		}
	}
	out := strings.Join(lines, "")
	if out != "" && rng.Intn(4) == 0 {
		out = strings.TrimSuffix(out, "\n")
	}
	return out
}

// apply is a minimal patch(1) for the diffs Unified renders: it checks
// every context and removed line against old.
func apply(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	src := splitLines(old)
	dl := splitLines(diff)
	if len(dl) < 2 || !strings.HasPrefix(dl[0], "--- ") || !strings.HasPrefix(dl[1], "+++ ") {
		return "", fmt.Errorf("missing headers")
	}
	var out []string
	pos := 0 // next unread line of src
	for i := 2; i < len(dl); {
		var os, oc, ns, nc int
		if _, err := fmt.Sscanf(normalizeHeader(dl[i]), "@@ -%d,%d +%d,%d @@", &os, &oc, &ns, &nc); err != nil {
			return "", fmt.Errorf("bad hunk header %q: %v", dl[i], err)
		}
		start := os - 1
		if oc == 0 {
			start = os
		}
		if start < pos {
			return "", fmt.Errorf("hunk %q goes backwards", dl[i])
		}
		out = append(out, src[pos:start]...)
		pos = start
		i++
		for i < len(dl) && !strings.HasPrefix(dl[i], "@@") {
			l := dl[i]
			body := l[1:]
			if i+1 < len(dl) && dl[i+1] == noNewline {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != body {
					return "", fmt.Errorf("line %d: have %q, diff says %q", pos+1, at(src, pos), body)
				}
				pos++
				if l[0] == ' ' {
					out = append(out, body)
				}
			case '+':
				out = append(out, body)
			default:
				return "", fmt.Errorf("bad diff line %q", l)
			}
			i++
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, ""), nil
}

// normalizeHeader adds the ",1" that diff -u leaves out.
func normalizeHeader(h string) string {
	f := strings.Fields(h)
	for i := 1; i <= 2 && i < len(f); i++ {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return strings.Join(f, " ")
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "<EOF>"
}

func BenchmarkUnifiedLargeFile(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&sb, "line %d of a large source file\n", i)
	}
	old := sb.String()
	new := strings.Replace(old, "line 10000 of", "LINE 10000 OF", 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Unified("a", "b", old, new, 3)
	}
}
