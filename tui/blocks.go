package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/reach-agent/reach/events"
)

// look is what blocks render with.
type look struct {
	md  *markdown
	pal palette
}

// block is one item of the conversation. lines is called only for blocks
// on screen and caches its result per width.
type block interface {
	lines(lk *look, width int) []string
	invalidate()
}

func (b *textBlock) invalidate() { b.width = 0 }

type panelBlock struct{ *toolPanel }

func (p panelBlock) lines(lk *look, width int) []string { return p.toolPanel.lines(width, lk.pal) }

type textItem struct{ *textBlock }

func (t textItem) lines(lk *look, width int) []string { return t.textBlock.lines(lk.md, width, lk.pal) }

// noteKind says how a note block looks.
type noteKind int

const (
	noteTask noteKind = iota
	notePhase
	noteInfo
	noteWarn
	noteError
	noteAnswer
	noteDone
	noteFailed
)

// noteBlock is a line or two of the UI's own: the task, a phase header,
// a notice, an answer given at a prompt, the final result.
type noteBlock struct {
	kind  noteKind
	title string
	text  string

	width int
	cache []string
}

func (n *noteBlock) invalidate() { n.cache = nil }

func (n *noteBlock) lines(lk *look, width int) []string {
	if n.cache != nil && n.width == width {
		return n.cache
	}
	n.width = width
	pal := lk.pal
	var out []string
	body := func(prefix string, style interface{ Render(...string) string }) {
		if n.text == "" {
			return
		}
		for _, l := range wrapLines(n.text, max(width-len(prefix), 10), style) {
			out = append(out, prefix+l)
		}
	}
	switch n.kind {
	case noteTask:
		out = append(out, pal.accent.Render("▶ task"))
		body("  ", pal.text)
	case notePhase:
		title := "── " + n.title + " "
		out = append(out, pal.accent.Render(title+strings.Repeat("─", max(width-ansi.StringWidth(title), 0))))
		body("  ", pal.muted)
	case noteInfo:
		body("· ", pal.muted)
	case noteWarn:
		body("! ", pal.warn)
	case noteError:
		body("✗ ", pal.bad)
	case noteAnswer:
		body("› ", pal.muted)
	case noteDone:
		out = append(out, pal.ok.Render("✓ "+n.title))
		body("  ", pal.muted)
	case noteFailed:
		out = append(out, pal.bad.Render("✗ "+n.title))
		body("  ", pal.bad)
	}
	n.cache = out
	return out
}

// resultNote turns the final event into a note.
func resultNote(r events.Result) *noteBlock {
	line := fmt.Sprintf("%s · %d in / %d out tokens · $%.4f · %.1fs", r.Status,
		r.Usage.InputTokens, r.Usage.OutputTokens, r.CostUSD, r.Duration)
	if r.Status == "success" {
		return &noteBlock{kind: noteDone, title: "done", text: line}
	}
	text := line
	if r.Error != "" {
		text = r.Error + "\n" + line
	}
	return &noteBlock{kind: noteFailed, title: r.Status, text: text}
}
