package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reach-agent/reach/events"
)

// Messages the model handles besides Bubble Tea's own.
type (
	// wakeMsg says events are waiting in the queue.
	wakeMsg struct{}
	// promptMsg opens a prompt.
	promptMsg struct{ p *prompt }
	// promptGoneMsg closes a prompt whose asker stopped waiting.
	promptGoneMsg struct{ p *prompt }
	// finishedMsg says the run is over and nothing more will come.
	finishedMsg struct{}
	// tickMsg advances the clock in the status line.
	tickMsg time.Time
)

// quitWindow is how soon a second Ctrl+C must follow the first.
const quitWindow = 2 * time.Second

// Model is the UI's one top-level Bubble Tea model. Events reach it in
// order through next (a drained queue) and change its state; View draws
// the conversation, an open prompt and the status line.
type Model struct {
	hooks Hooks
	now   func() time.Time
	next  func() []any // events and prompts queued since the last wake

	width, height int
	dark, noColor bool
	look          look

	conv    conversation
	stream  *textBlock            // the assistant message being streamed
	panels  map[string]*toolPanel // by call id
	order   []int                 // indexes of tool panels in conv.blocks
	sel     int                   // index into order; -1 when none
	status  status
	prompts []*prompt
	input   textarea.Model
	help    bool
	done    bool // the run has ended
	ctrlC   time.Time
}

// Hooks are what the keys do outside the UI. Nil hooks do nothing.
type Hooks struct {
	Interrupt func() // Esc: cancel the current model call or tool
	Quit      func() // Ctrl+C twice: end the run
}

// newModel returns a model of the given size.
func newModel(h Hooks, now func() time.Time, next func() []any, width, height int, noColor bool) *Model {
	if now == nil {
		now = time.Now
	}
	m := &Model{
		hooks: h, now: now, next: next, width: width, height: height,
		dark: true, noColor: noColor, conv: newConversation(),
		panels: map[string]*toolPanel{}, sel: -1,
	}
	m.restyle()
	return m
}

func (m *Model) restyle() {
	m.look = look{md: newMarkdown(m.dark, m.noColor), pal: newPalette(m.dark, m.noColor)}
	m.input = newInput(m.width, m.dark)
	m.conv.invalidate()
}

// Init asks for the background colour and starts the clock.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, m.tick())
}

func (m *Model) tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Update applies one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case wakeMsg:
		if m.next == nil {
			return m, nil
		}
		var cmds []tea.Cmd
		for _, item := range m.next() {
			switch item := item.(type) {
			case events.Event:
				m.apply(item)
			case promptMsg:
				cmds = append(cmds, m.openPrompt(item.p))
			}
		}
		return m, tea.Batch(cmds...)
	case promptMsg:
		return m, m.openPrompt(msg.p)
	case promptGoneMsg:
		m.dropPrompt(msg.p)
	case finishedMsg:
		m.done = true
		if m.status.end.IsZero() {
			m.status.end = m.now()
		}
	case tickMsg:
		if m.done {
			return m, nil
		}
		if !m.ctrlC.IsZero() && m.now().Sub(m.ctrlC) > quitWindow {
			m.ctrlC, m.status.note = time.Time{}, ""
		}
		return m, m.tick()
	case tea.BackgroundColorMsg:
		if dark := msg.IsDark(); dark != m.dark {
			m.dark = dark
			m.restyle()
		}
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			m.scroll(-3)
		case tea.MouseWheelDown:
			m.scroll(3)
		}
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if p := m.current(); p != nil && p.text() {
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(msg)
			return m, cmd
		}
	}
	return m, nil
}

func (m *Model) resize(w, h int) {
	m.width, m.height = w, h
	m.input.SetWidth(max(w-6, 10))
}

// openPrompt queues p; it shows once the prompts before it are answered.
func (m *Model) openPrompt(p *prompt) tea.Cmd {
	m.prompts = append(m.prompts, p)
	m.help = false
	m.conv.toBottom()
	if p.text() && len(m.prompts) == 1 {
		return m.openInput()
	}
	return nil
}

// current is the open prompt, if any.
func (m *Model) current() *prompt {
	if len(m.prompts) == 0 {
		return nil
	}
	return m.prompts[0]
}

func (m *Model) openInput() tea.Cmd {
	m.input.Reset()
	return m.input.Focus()
}

// closePrompt answers the open prompt, records the answer in the
// conversation and opens the next one.
func (m *Model) closePrompt(answer string) tea.Cmd {
	p := m.current()
	p.answer(answer)
	m.prompts = m.prompts[1:]
	shown := answer
	if p.text() {
		if strings.TrimSpace(answer) == "" {
			shown = "(no answer)"
		}
	} else {
		shown = answer + " (" + choiceLabel(answer) + ")"
	}
	m.conv.add(&noteBlock{kind: noteAnswer, text: firstLine(p.question) + " → " + shown})
	m.conv.toBottom()
	m.input.Blur()
	if next := m.current(); next != nil && next.text() {
		return m.openInput()
	}
	return nil
}

func (m *Model) dropPrompt(p *prompt) {
	for i, q := range m.prompts {
		if q == p {
			m.prompts = append(m.prompts[:i:i], m.prompts[i+1:]...)
			p.answered = true
			if i == 0 {
				m.input.Blur()
			}
			return
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// convHeight is the number of lines left for the conversation.
func (m *Model) convHeight(footer string) int {
	return max(m.height-strings.Count(footer, "\n")-1, 1)
}

func (m *Model) scroll(n int) {
	m.conv.scroll(&m.look, m.width, m.convHeight(m.footer()), n)
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

// render returns the screen as text: conversation, footer, status line.
func (m *Model) render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	footer := m.footer()
	h := m.convHeight(footer)
	lines := m.conv.window(&m.look, m.width, h)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for i := len(lines); i < h; i++ {
		b.WriteByte('\n')
	}
	b.WriteString(footer)
	return b.String()
}

// footer is the prompt or help box (if any) and the status line.
func (m *Model) footer() string {
	st := m.status.render(m.width, m.now(), m.look.pal)
	var box string
	switch {
	case m.current() != nil:
		box = m.current().render(m.width, &m.input, m.look.pal)
	case m.help:
		box = helpBox(m.width, m.look.pal)
	case m.done:
		box = m.look.pal.muted.Render(ansi.Truncate(" finished · q quits · pgup/pgdn scroll · tab/enter open tool output", m.width, "…"))
	}
	if box == "" {
		return st
	}
	return box + "\n" + st
}

func helpBox(width int, pal palette) string {
	rows := [][2]string{
		{"esc", "interrupt the current step and say what to do next"},
		{"ctrl+c ctrl+c", "end the run and quit"},
		{"pgup pgdn ↑ ↓ wheel", "scroll; home/end jump"},
		{"tab shift+tab", "select a tool call"},
		{"enter", "expand or collapse the selected (or last) tool output"},
		{"y n c a", "answer an approval question"},
		{"ctrl+d", "send a written answer"},
	}
	var b strings.Builder
	b.WriteString(pal.bold.Render("keys"))
	for _, r := range rows {
		b.WriteString("\n" + pal.accent.Render(padRight(r[0], 20)) + r[1])
	}
	return pal.promptBox.Width(width).Render(b.String())
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}
