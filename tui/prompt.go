package tui

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
)

// prompt is a question put to the human from the agent's side: a choice
// of keys, or multi-line text. The answer goes to reply exactly once.
type prompt struct {
	question string
	choices  []string // empty: a text prompt
	reply    chan string
	answered bool
}

func (p *prompt) text() bool { return len(p.choices) == 0 }

// answer sends s unless an answer was already given.
func (p *prompt) answer(s string) {
	if p.answered {
		return
	}
	p.answered = true
	p.reply <- s
}

// choiceFor returns the choice key stands for, if any.
func (p *prompt) choiceFor(key string) (string, bool) {
	for _, c := range p.choices {
		if strings.EqualFold(c, key) {
			return c, true
		}
	}
	return "", false
}

// choiceLabel says what a choice key means.
func choiceLabel(c string) string {
	switch strings.ToLower(c) {
	case "y":
		return "yes"
	case "n":
		return "no"
	case "c":
		return "cowboy mode for the session"
	case "a":
		return "always"
	}
	return c
}

// render draws the open prompt as a box at width.
func (p *prompt) render(width int, input *textarea.Model, pal palette) string {
	inner := max(width-4, 10)
	var b strings.Builder
	for i, l := range wrapLines(strings.TrimRight(p.question, "\n"), inner, pal.bold) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	b.WriteByte('\n')
	if p.text() {
		b.WriteString(input.View())
		b.WriteByte('\n')
		b.WriteString(pal.muted.Render("ctrl+d sends · enter adds a line"))
	} else {
		keys := make([]string, 0, len(p.choices))
		for _, c := range p.choices {
			keys = append(keys, pal.accent.Render("["+c+"]")+" "+choiceLabel(c))
		}
		b.WriteString(strings.Join(keys, "   "))
	}
	return pal.promptBox.Width(width).Render(b.String())
}

// newInput returns the text area used by text prompts.
func newInput(width int, dark bool) textarea.Model {
	in := textarea.New()
	in.ShowLineNumbers = false
	in.Placeholder = "Type your answer…"
	in.SetStyles(textarea.DefaultStyles(dark))
	in.SetWidth(max(width-6, 10))
	in.SetHeight(4)
	in.CharLimit = 0
	return in
}
