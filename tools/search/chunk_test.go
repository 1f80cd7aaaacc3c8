package search

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// oracleLines is what a search must find, computed the plain way: split
// the text into lines and run the regexp on each.
func oracleLines(t *testing.T, content, pattern string, fixed, caseSensitive bool) []outLine {
	t.Helper()
	if content == "" || strings.Contains(content, "\x00") {
		return nil // no lines; binary
	}
	expr := pattern
	if fixed {
		expr = regexp.QuoteMeta(pattern)
	}
	if !caseSensitive {
		expr = "(?i)" + expr
	}
	re := regexp.MustCompile(expr)
	lines := strings.Split(content, "\n")
	if strings.HasSuffix(content, "\n") {
		lines = lines[:len(lines)-1]
	}
	var out []outLine
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if re.MatchString(l) {
			out = append(out, outLine{Num: i + 1, Text: l, Match: true})
		}
	}
	return out
}

// TestSearchChunks searches files with chunks from one byte to larger than
// the file: lines cut at every place, a line longer than the chunk, CRLF cut
// between \r and \n, must all give the lines a whole-file search gives.
func TestSearchChunks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	contents := map[string]string{
		"match at start and end":    "Needle first\nmiddle\nlast Needle\n",
		"no trailing newline":       "a\nb Needle",
		"only the match":            "Needle",
		"crlf":                      "x\r\nNeedle one\r\n\r\nneedle two\r\nNeedle\r\n",
		"several matches per line":  "Needle Needle Needle\nNeedleNeedle\nnone\n",
		"empty lines":               "\n\nNeedle\n\n\nNeedle\n\n",
		"long line":                 strings.Repeat("y", 300) + "Needle" + strings.Repeat("z", 300) + "\nNeedle\n",
		"nul after the matches":     "Needle\n" + strings.Repeat("pad\n", 40) + "\x00\n",
		"nul first":                 "\x00Needle\n",
		"no match":                  "nothing\nto see\n",
		"empty":                     "",
		"non-ascii for case fold":   "café Needle\nNEEDLE ſ\nneedle\n",
		"match straddling newlines": "Need\nle\nNeedle\n",
	}
	patterns := []struct {
		name, pattern string
		fixed, cs     bool
	}{
		{"literal", "Needle", true, true},
		{"fold literal", "needle", true, false},
		{"regex with literal", `N\w+e\b`, false, true},
		{"regex without literal", `[A-Z][a-z]+$`, false, true},
		{"empty line", `^$`, false, true},
	}
	for name, content := range contents {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, pc := range patterns {
			t.Run(name+"/"+pc.name, func(t *testing.T) {
				t.Parallel()
				m, err := compileMatcher(pc.pattern, pc.fixed, pc.cs)
				if err != nil {
					t.Fatal(err)
				}
				want := oracleLines(t, content, pc.pattern, pc.fixed, pc.cs)
				for _, size := range []int{1, 2, 3, 5, 7, 8, 16, 64, 1000, chunkSize} {
					bufs := &fileBuffers{data: make([]byte, size)}
					for round := range 2 { // again with the buffers the first round left
						got := searchChunks(p, m, bufs)
						if !slices.Equal(got, want) {
							t.Fatalf("chunk %d, round %d: got %v, want %v", size, round, got, want)
						}
					}
				}
			})
		}
	}
}

// TestSearchChunksLargeFile searches a file many chunks long, with matches
// in the first and last chunk and one cut by a chunk boundary.
func TestSearchChunksLargeFile(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("Needle at the start\n")
	for b.Len() < chunkSize-3 {
		b.WriteString("filler line without the word\n")
	}
	b.WriteString("Needle cut by the first chunk's end\n")
	for b.Len() < 3*chunkSize+100 {
		b.WriteString("more filler\r\n")
	}
	b.WriteString("the last Needle")
	content := b.String()
	p := filepath.Join(t.TempDir(), "large.txt")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := compileMatcher("Needle", true, true)
	if err != nil {
		t.Fatal(err)
	}
	got := searchChunks(p, m, &fileBuffers{})
	want := oracleLines(t, content, "Needle", true, true)
	if len(want) != 3 || !slices.Equal(got, want) {
		t.Errorf("got %v, want %v (3 lines)", got, want)
	}
}

func TestSearchChunksUnreadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	m, err := compileMatcher("x", true, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing"), dir} {
		if got := searchChunks(p, m, &fileBuffers{}); got != nil {
			t.Errorf("%s: got %v, want no lines", p, got)
		}
	}
}
