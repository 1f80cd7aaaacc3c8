// Package diffview renders line-based unified diffs, for tool results and
// for the TUI.
package diffview

import (
	"fmt"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// noNewline is the marker diff(1) and git print after a line that does not
// end with a newline.
const noNewline = "\\ No newline at end of file\n"

// diffTimeout bounds the diff search; past it the diff stays correct but
// may be longer than the minimal one.
const diffTimeout = 2 * time.Second

type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

// line is one line of the edit script with its 1-based numbers in the old
// and the new text (the number of the line before it where it is absent).
type line struct {
	kind       opKind
	text       string // with its trailing newline, if any
	oldN, newN int
}

// Unified returns the unified diff of old and new with the given number of
// context lines, headed by "--- oldName" and "+++ newName". Identical
// texts give "". A negative context counts as 0.
func Unified(oldName, newName, old, new string, context int) string {
	if old == new {
		return ""
	}
	if context < 0 {
		context = 0
	}
	script := lineScript(old, new)
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(script, context) {
		writeHunk(&b, script[h[0]:h[1]])
	}
	return b.String()
}

// Stats counts the added and removed lines between old and new.
func Stats(old, new string) (added, removed int) {
	if old == new {
		return 0, 0
	}
	for _, l := range lineScript(old, new) {
		switch l.kind {
		case opInsert:
			added++
		case opDelete:
			removed++
		}
	}
	return added, removed
}

// lineScript diffs old and new line by line and numbers the lines.
func lineScript(old, new string) []line {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	a, b, lines := dmp.DiffLinesToRunes(old, new)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)

	var out []line
	oldN, newN := 0, 0
	for _, d := range diffs {
		for _, text := range splitLines(d.Text) {
			l := line{text: text}
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				oldN++
				newN++
				l.kind = opEqual
			case diffmatchpatch.DiffDelete:
				oldN++
				l.kind = opDelete
			case diffmatchpatch.DiffInsert:
				newN++
				l.kind = opInsert
			}
			l.oldN, l.newN = oldN, newN
			out = append(out, l)
		}
	}
	return out
}

// splitLines splits s after each newline; a last line without one is kept.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// hunks returns [start, end) ranges of script: every change with up to
// context equal lines around it, ranges closer than 2*context merged.
func hunks(script []line, context int) [][2]int {
	var out [][2]int
	for i := 0; i < len(script); i++ {
		if script[i].kind == opEqual {
			continue
		}
		start := max(0, i-context)
		// Extend over changes and short runs of equal lines.
		end := i
		for end < len(script) {
			if script[end].kind != opEqual {
				end++
				continue
			}
			run := end
			for run < len(script) && script[run].kind == opEqual {
				run++
			}
			if run == len(script) || run-end > 2*context {
				end = min(len(script), end+context)
				break
			}
			end = run
		}
		out = append(out, [2]int{start, end})
		i = end - 1
	}
	return out
}

func writeHunk(b *strings.Builder, h []line) {
	var oldCount, newCount int
	for _, l := range h {
		if l.kind != opInsert {
			oldCount++
		}
		if l.kind != opDelete {
			newCount++
		}
	}
	first := h[0]
	oldStart, newStart := first.oldN, first.newN
	// The numbers of a line absent from one side point at the line before.
	if first.kind == opInsert {
		oldStart++
	}
	if first.kind == opDelete {
		newStart++
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(oldStart, oldCount), hunkRange(newStart, newCount))
	for _, l := range h {
		b.WriteByte(byte(l.kind))
		b.WriteString(l.text)
		if !strings.HasSuffix(l.text, "\n") {
			b.WriteByte('\n')
			b.WriteString(noNewline)
		}
	}
}

// hunkRange formats "start,count" the way diff -u does: an empty range
// names the line before it, and a count of 1 is left out.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	default:
		return fmt.Sprintf("%d,%d", start, count)
	}
}
