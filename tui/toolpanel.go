package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/reach-agent/reach/events"
)

// Collapsed panels show this many lines of a result.
const (
	collapsedLines = 4
	collapsedDiff  = 14
	maxExpanded    = 400 // an expanded result keeps its last lines past this
)

// kind groups tools for their icon; the word is shown too, so nothing
// depends on the glyph. The glyphs are in every common terminal font.
type kind struct{ icon, word string }

var (
	kindSearch = kind{"/", "search"}
	kindRead   = kind{"≡", "read"}
	kindEdit   = kind{"±", "edit"}
	kindShell  = kind{"$", "shell"}
	kindExpert = kind{"*", "expert"}
	kindHuman  = kind{"?", "human"}
	kindNote   = kind{"•", "note"}
	kindOther  = kind{"•", "tool"}
)

// kindOf classifies a tool by its name.
func kindOf(name string) kind {
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(name, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("human"):
		return kindHuman
	case has("expert"):
		return kindExpert
	case has("shell", "run_"):
		return kindShell
	case has("replace", "put_", "write", "edit", "patch"):
		return kindEdit
	case has("search", "find", "grep"):
		return kindSearch
	case has("read", "list", "tree", "nav", "symbol"):
		return kindRead
	case has("emit_", "note", "task", "plan"):
		return kindNote
	}
	return kindOther
}

// toolPanel is one tool call and, once it arrives, its result.
type toolPanel struct {
	call     events.ToolCall
	result   *events.ToolResult
	live     liveTail // output so far, while it runs
	approval string   // the decision on its command, if one was asked
	expanded bool
	selected bool

	width int
	cache []string
}

func (p *toolPanel) invalidate() { p.cache = nil }

// lines renders the panel at width.
func (p *toolPanel) lines(width int, pal palette) []string {
	if p.cache != nil && p.width == width {
		return p.cache
	}
	p.width = width
	inner := max(width-3, 10) // border and padding
	k := kindOf(p.call.Name)
	head := pal.accent.Render(k.icon+" "+k.word) + " " + pal.bold.Render(p.call.Name)
	state := pal.muted.Render("running…")
	if p.result != nil {
		state = pal.ok.Render("✓ " + duration(p.result.DurationMS))
		if !p.result.Success {
			state = pal.bad.Render("✗ " + duration(p.result.DurationMS))
		}
	}
	if word := approvalWord(p.approval); word != "" {
		state = pal.warn.Render(word) + " " + state
	}
	args := argsLine(p.call.Name, p.call.Arguments)
	room := inner - ansi.StringWidth(head) - ansi.StringWidth(state) - 2
	line := head
	if room > 3 && args != "" {
		line += " " + pal.muted.Render(ansi.Truncate(args, room, "…"))
	}
	gap := inner - ansi.StringWidth(line) - ansi.StringWidth(state)
	line += strings.Repeat(" ", max(gap, 1)) + state
	body := []string{line}
	if p.result == nil {
		body = append(body, p.live.render(inner, pal)...)
	}
	body = append(body, p.resultLines(k, inner, pal)...)
	style := pal.panel
	if p.selected {
		style = pal.selected
	}
	p.cache = strings.Split(style.Render(strings.Join(body, "\n")), "\n")
	return p.cache
}

func (p *toolPanel) resultLines(k kind, width int, pal palette) []string {
	r := p.result
	if r == nil {
		return nil
	}
	if !r.Success {
		msg := r.Error
		if msg == "" {
			msg = r.Output
		}
		return clip(wrapLines(msg, width, pal.bad), collapsedLines, p.expanded, pal)
	}
	out := strings.TrimRight(r.Output, "\n")
	if out == "" {
		return nil
	}
	if k == kindEdit || looksLikeDiff(out) {
		return clip(diffLines(out, width, pal), collapsedDiff, p.expanded, pal)
	}
	lines := wrapLines(out, width, pal.muted)
	if k == kindShell && !p.expanded {
		return tail(lines, collapsedLines, pal)
	}
	return clip(lines, collapsedLines, p.expanded, pal)
}

// clip keeps the first n lines of a collapsed result, or the last
// maxExpanded of an expanded one, saying what was left out.
func clip(lines []string, n int, expanded bool, pal palette) []string {
	if expanded {
		if len(lines) > maxExpanded {
			more := len(lines) - maxExpanded
			return append([]string{pal.muted.Render(fmt.Sprintf("… %d earlier lines", more))}, lines[more:]...)
		}
		return lines
	}
	if len(lines) <= n {
		return lines
	}
	return append(lines[:n:n], pal.muted.Render(fmt.Sprintf("… %d more lines (enter expands)", len(lines)-n)))
}

// tail keeps the last n lines, as a shell's output is read from the end.
func tail(lines []string, n int, pal palette) []string {
	if len(lines) <= n {
		return lines
	}
	return append([]string{pal.muted.Render(fmt.Sprintf("… %d earlier lines (enter expands)", len(lines)-n))}, lines[len(lines)-n:]...)
}

// wrapLines wraps sanitized text to width in style.
func wrapLines(s string, width int, style interface{ Render(...string) string }) []string {
	var out []string
	for _, l := range strings.Split(sanitize(s), "\n") {
		for _, w := range strings.Split(ansi.Hardwrap(l, width, true), "\n") {
			out = append(out, style.Render(w))
		}
	}
	return out
}

// argsLine shows a call's JSON arguments on one line, the argument that
// says most first (a command, a path, a pattern).
func argsLine(name string, raw string) string {
	var args map[string]any
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		return oneLine(raw)
	}
	if cmd, ok := args["command"].(string); ok && kindOf(name) == kindShell {
		return oneLine(cmd)
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		for i, first := range []string{"command", "filepath", "path", "file", "pattern", "query", "question", "dir"} {
			if k == first {
				return i
			}
		}
		return 100
	}
	sort.Slice(keys, func(i, j int) bool {
		if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := args[k]
		var s string
		switch v := v.(type) {
		case string:
			s = oneLine(v)
			if strings.ContainsAny(s, " =") || s == "" {
				s = fmt.Sprintf("%q", s)
			}
		default:
			b, _ := json.Marshal(v)
			s = string(b)
		}
		parts = append(parts, k+"="+s)
	}
	return strings.Join(parts, " ")
}

// oneLine squeezes s onto one line without control characters.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sanitize removes escape sequences and control characters other than
// newline (tabs become four spaces), so model or tool output cannot
// drive the terminal.
func sanitize(s string) string {
	s = strings.ReplaceAll(ansi.Strip(s), "\t", "    ")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

// approvalWord says what the human or the policy decided on a command.
func approvalWord(decision string) string {
	switch decision {
	case "yes":
		return "approved"
	case "no":
		return "declined"
	case "cowboy":
		return "cowboy"
	case "denied":
		return "denied"
	}
	return "" // allowed by policy: nothing to flag
}

func duration(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%dms", ms)
	}
	return fmt.Sprintf("%.1fs", float64(ms)/1000)
}
