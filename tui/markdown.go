package tui

import (
	"strings"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/styles"
	"github.com/charmbracelet/x/ansi"
)

// maxTailMarkdown is the largest unfinished tail rendered as markdown while
// streaming; a longer one (a huge code block still open) is wrapped as
// plain text until it completes, so no frame has to parse it all.
const maxTailMarkdown = 16 << 10

// markdown renders assistant text with glamour, one renderer per width.
type markdown struct {
	style     string
	renderers map[int]*glamour.TermRenderer
}

func newMarkdown(dark, noColor bool) *markdown {
	style := styles.LightStyle
	switch {
	case noColor:
		style = styles.NoTTYStyle
	case dark:
		style = styles.DarkStyle
	}
	return &markdown{style: style, renderers: map[int]*glamour.TermRenderer{}}
}

// render returns the lines of text rendered at width, without the blank
// lines glamour puts around a document. If glamour fails, the text is
// wrapped plainly: the user still sees every word.
func (m *markdown) render(text string, width int) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	r, ok := m.renderers[width]
	if !ok {
		if len(m.renderers) > 8 { // a resize storm: keep the map small
			clear(m.renderers)
		}
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStandardStyle(m.style), glamour.WithWordWrap(width-2))
		if err != nil {
			return plainLines(text, width)
		}
		m.renderers[width] = r
	}
	// Tabs would be expanded by the terminal past the width glamour counted.
	out, err := r.Render(strings.ReplaceAll(text, "\t", "    "))
	if err != nil {
		return plainLines(text, width)
	}
	return trimBlank(strings.Split(strings.TrimRight(out, "\n"), "\n"))
}

// plainLines wraps text to width without markdown.
func plainLines(text string, width int) []string {
	return strings.Split(ansi.Wrap(sanitize(strings.TrimRight(text, "\n")), max(width-2, 10), ""), "\n")
}

// trimBlank drops leading and trailing lines that show nothing.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[0])) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// textBlock is one assistant message. While it streams, the finished
// paragraphs are rendered once and kept; only the unfinished tail is
// re-rendered when more text arrives.
type textBlock struct {
	text      strings.Builder
	streaming bool
	note      string // shown under the text, e.g. "interrupted"

	// Stream bookkeeping, in bytes of text.
	scanned int  // complete lines looked at so far
	stable  int  // text[:stable] is finished paragraphs
	inFence bool // scanning is inside a ``` block
	content bool // a non-blank line since stable

	width       int
	stableLines []string // text[:stable] rendered at width
	tailLines   []string
	tailDirty   bool
	view        []string // what lines returns; nil when it must be rebuilt
}

func (b *textBlock) append(s string) {
	b.text.WriteString(s)
	b.tailDirty = true
}

// finish ends the stream. When the complete message differs from what was
// streamed (or nothing was), it replaces it and is rendered afresh;
// otherwise the streamed rendering is kept, so a long answer is not
// rendered twice.
func (b *textBlock) finish(text string) {
	if text != "" && text != b.text.String() {
		b.text.Reset()
		b.text.WriteString(text)
		b.reset()
	}
	b.streaming = false
	b.tailDirty = true
	b.view = nil
}

// reset forgets every rendering.
func (b *textBlock) reset() {
	b.stableLines, b.tailLines, b.view = nil, nil, nil
	b.stable, b.scanned, b.inFence, b.content = 0, 0, false, false
	b.tailDirty = true
}

// lines returns the block rendered at width, rendering what changed.
func (b *textBlock) lines(md *markdown, width int, pal palette) []string {
	if b.width != width {
		b.width = width
		b.reset()
	}
	changed := b.advance(md, width)
	if b.tailDirty {
		tail := b.text.String()[b.stable:]
		if b.streaming && len(tail) > maxTailMarkdown {
			b.tailLines = plainLines(tail, width)
		} else {
			b.tailLines = md.render(tail, width)
		}
		b.tailDirty = false
		changed = true
	}
	if changed || b.view == nil {
		view := make([]string, 0, len(b.stableLines)+len(b.tailLines)+2)
		view = append(view, b.stableLines...)
		if len(b.stableLines) > 0 && len(b.tailLines) > 0 {
			view = append(view, "")
		}
		view = append(view, b.tailLines...)
		if b.note != "" {
			view = append(view, "  "+pal.warn.Render(b.note))
		}
		b.view = view
	}
	return b.view
}

// advance moves the stable mark over paragraphs completed since the last
// call and renders them; it reports whether it did. A paragraph ends at a
// blank line outside a code fence.
func (b *textBlock) advance(md *markdown, width int) bool {
	text := b.text.String()
	moved := false
	for {
		nl := strings.IndexByte(text[b.scanned:], '\n')
		if nl < 0 {
			return moved
		}
		line := text[b.scanned : b.scanned+nl]
		b.scanned += nl + 1
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			b.inFence = !b.inFence
			b.content = true
		case trimmed == "" && !b.inFence && b.content:
			chunk := md.render(text[b.stable:b.scanned], width)
			if len(b.stableLines) > 0 && len(chunk) > 0 {
				b.stableLines = append(b.stableLines, "")
			}
			b.stableLines = append(b.stableLines, chunk...)
			b.stable = b.scanned
			b.content = false
			b.tailDirty = true
			moved = true
		case trimmed != "":
			b.content = true
		}
	}
}
