package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// A running tool's panel shows this many of its last output lines.
const (
	liveLines   = 10
	maxLiveLine = 1024 // bytes kept of an unfinished line (a progress bar)
)

// liveTail is the end of a running tool's output, as ToolOutput events
// bring it: the last complete lines and the line still being written.
type liveTail struct {
	lines   []string // at most liveLines
	partial string
}

func (t *liveTail) empty() bool { return len(t.lines) == 0 && t.partial == "" }

// add appends a chunk of output. Only the last liveLines lines of it are
// looked at, so a large chunk costs no more than a small one to keep.
func (t *liveTail) add(text string) {
	s := t.partial + text
	last := strings.LastIndexByte(s, '\n')
	if last < 0 {
		t.partial = clipStart(s, maxLiveLine)
		return
	}
	t.partial = clipStart(s[last+1:], maxLiveLine)
	s = s[:last]
	// Start at the liveLines-th newline from the end.
	start := len(s)
	for range liveLines {
		start = strings.LastIndexByte(s[:start], '\n')
		if start < 0 {
			break
		}
	}
	fresh := strings.Split(s[start+1:], "\n")
	if start < 0 {
		fresh = strings.Split(s, "\n")
	}
	keep := max(liveLines-len(fresh), 0)
	t.lines = append(t.lines[max(len(t.lines)-keep, 0):len(t.lines):len(t.lines)], fresh...)
}

// clipStart keeps the last n bytes of s (at a rune start).
func clipStart(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for i := 0; i < len(s) && i < 4; i++ {
		if s[i]&0xC0 != 0x80 {
			return s[i:]
		}
	}
	return s
}

// render draws the tail at width, one screen line per output line: a
// live view must not jump around, so long lines are cut, not wrapped.
func (t *liveTail) render(width int, pal palette) []string {
	lines := t.lines
	if t.partial != "" {
		lines = append(lines[:len(lines):len(lines)], t.partial)
	}
	lines = lines[max(len(lines)-liveLines, 0):]
	out := make([]string, len(lines))
	for i, l := range lines {
		// A carriage return redraws the line: keep what came after it.
		if j := strings.LastIndexByte(strings.TrimRight(l, "\r"), '\r'); j >= 0 {
			l = l[j+1:]
		}
		out[i] = pal.muted.Render(ansi.Truncate(sanitize(l), width, "…"))
	}
	return out
}
