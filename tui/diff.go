package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// looksLikeDiff reports whether s contains a unified diff header.
func looksLikeDiff(s string) bool {
	i := strings.Index(s, "\n--- ")
	if !strings.HasPrefix(s, "--- ") && i < 0 {
		return false
	}
	return strings.Contains(s, "\n+++ ") && strings.Contains(s, "\n@@ ")
}

// diffLines colours the unified diff in s (text before it is kept as is)
// and numbers its lines: old and new line numbers in a gutter, then the
// sign and the text, cut to width.
func diffLines(s string, width int, pal palette) []string {
	var out []string
	inDiff := false
	oldN, newN := 0, 0
	for _, l := range strings.Split(sanitize(s), "\n") {
		switch {
		case strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ "):
			inDiff = true
			out = append(out, pal.bold.Render(ansi.Truncate(l, width, "…")))
			continue
		case strings.HasPrefix(l, "@@"):
			inDiff = true
			oldN, newN = hunkStart(l)
			out = append(out, pal.hunk.Render(ansi.Truncate(l, width, "…")))
			continue
		case !inDiff:
			out = append(out, wrapLines(l, width, pal.text)...)
			continue
		}
		var gutter, text string
		style := pal.text
		switch {
		case strings.HasPrefix(l, "+"):
			gutter = fmt.Sprintf("%4s %4d", "", newN)
			newN++
			style = pal.add
		case strings.HasPrefix(l, "-"):
			gutter = fmt.Sprintf("%4d %4s", oldN, "")
			oldN++
			style = pal.del
		case strings.HasPrefix(l, " "):
			gutter = fmt.Sprintf("%4d %4d", oldN, newN)
			oldN++
			newN++
		default: // "\ No newline at end of file" and the like
			out = append(out, pal.muted.Render(ansi.Truncate(l, width, "…")))
			continue
		}
		text = ansi.Truncate(l, max(width-len(gutter)-3, 5), "…")
		out = append(out, pal.muted.Render(gutter+" │")+" "+style.Render(text))
	}
	return out
}

// hunkStart reads the first old and new line numbers of "@@ -a,b +c,d @@".
func hunkStart(header string) (oldStart, newStart int) {
	fields := strings.Fields(header)
	if len(fields) < 3 {
		return 0, 0
	}
	num := func(f string) int {
		f = strings.TrimLeft(f, "-+")
		if i := strings.IndexByte(f, ','); i >= 0 {
			f = f[:i]
		}
		n, _ := strconv.Atoi(f)
		return n
	}
	return num(fields[1]), num(fields[2])
}
