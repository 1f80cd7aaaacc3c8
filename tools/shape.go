package tools

import (
	"fmt"
	"strings"
)

// Output limits of SPEC §3: past either, the head and the tail are kept.
const (
	MaxOutputLines = 5000
	MaxOutputBytes = 64 << 10
)

// Shape truncates a result's output and error to the SPEC limits.
func Shape(r Result) Result {
	r.Output = Truncate(r.Output, MaxOutputLines, MaxOutputBytes)
	r.Error = Truncate(r.Error, MaxOutputLines, MaxOutputBytes)
	return r
}

// Truncate keeps the head and the tail of s so that it has at most
// maxLines lines and about maxBytes bytes, with a marker in the middle
// that says how many lines were cut and how to get them.
func Truncate(s string, maxLines, maxBytes int) string {
	if len(s) <= maxBytes && strings.Count(s, "\n") < maxLines {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	budget := maxBytes - 200 // room for the marker
	keepLines := maxLines - 1
	headN, tailN := 0, 0
	used := 0
	// Alternate head and tail so both ends survive.
	for headN+tailN < len(lines) && headN+tailN < keepLines {
		var next string
		fromHead := headN <= tailN
		if fromHead {
			next = lines[headN]
		} else {
			next = lines[len(lines)-1-tailN]
		}
		if used+len(next) > budget {
			break
		}
		used += len(next)
		if fromHead {
			headN++
		} else {
			tailN++
		}
	}
	cut := len(lines) - headN - tailN
	if cut <= 0 || headN+tailN == 0 {
		// Enormous lines: cut bytes instead, on rune boundaries.
		if len(s) <= budget {
			return s
		}
		half := budget / 2
		head, tail := s[:half], s[len(s)-half:]
		head = strings.ToValidUTF8(head, "")
		tail = strings.ToValidUTF8(tail, "")
		return head + fmt.Sprintf("\n[%d bytes truncated; narrow the request (offset/limit, a more specific pattern) to see them]\n", len(s)-len(head)-len(tail)) + tail
	}
	var b strings.Builder
	for _, l := range lines[:headN] {
		b.WriteString(l)
	}
	if headN > 0 && !strings.HasSuffix(lines[headN-1], "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[%d lines truncated; narrow the request (offset/limit, a more specific pattern or path) to see them]\n", cut)
	for _, l := range lines[len(lines)-tailN:] {
		b.WriteString(l)
	}
	return b.String()
}
