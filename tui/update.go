package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/reach-agent/reach/events"
)

// apply changes the model for one agent event.
func (m *Model) apply(e events.Event) {
	switch e := e.(type) {
	case events.Init:
		m.status.model = e.Model
		m.status.cowboy = e.Cowboy
		m.status.start = e.Time
		if m.status.start.IsZero() {
			m.status.start = m.now()
		}
		if e.Task != "" {
			m.conv.add(&noteBlock{kind: noteTask, text: e.Task})
		}
	case events.Phase:
		m.endStream("")
		m.status.phase, m.status.taskIndex, m.status.taskCount = e.Name, e.TaskIndex, e.TaskCount
		title := e.Name
		if e.TaskCount > 0 {
			title += " · task " + strconv.Itoa(e.TaskIndex) + " of " + strconv.Itoa(e.TaskCount)
		}
		m.conv.add(&noteBlock{kind: notePhase, title: title, text: e.Task})
	case events.TextDelta:
		if m.stream == nil {
			m.stream = &textBlock{streaming: true}
			m.conv.add(textItem{m.stream})
		}
		m.stream.append(e.Text)
	case events.Message:
		if m.stream != nil {
			m.stream.finish(e.Text)
			m.stream = nil
		} else if strings.TrimSpace(e.Text) != "" {
			b := &textBlock{}
			b.finish(e.Text)
			m.conv.add(textItem{b})
		}
	case events.ToolCall:
		m.endStream("")
		p := &toolPanel{call: e}
		m.panels[e.ID] = p
		m.addPanel(p)
	case events.ToolResult:
		p, ok := m.panels[e.ID]
		if !ok {
			p = &toolPanel{call: events.ToolCall{ID: e.ID, Name: e.Name, Phase: e.Phase}}
			m.addPanel(p)
		}
		r := e
		p.result = &r
		p.live = liveTail{} // the result replaces the live view
		p.invalidate()
	case events.ToolOutput:
		if p, ok := m.panels[e.ID]; ok && p.result == nil {
			p.live.add(e.Text)
			p.invalidate()
		}
	case events.Approval:
		m.approval(e)
	case events.Usage:
		m.status.in, m.status.out, m.status.cost = e.InputTokens, e.OutputTokens, e.CostUSD
	case events.Notice:
		kind := noteInfo
		switch e.Level {
		case "warn":
			kind = noteWarn
		case "error":
			kind = noteError
		}
		m.conv.add(&noteBlock{kind: kind, text: e.Text})
	case events.Result:
		m.endStream("")
		m.status.in, m.status.out, m.status.cost = e.Usage.InputTokens, e.Usage.OutputTokens, e.CostUSD
		m.status.end = m.now()
		m.conv.add(resultNote(e))
		m.conv.toBottom()
	}
}

func (m *Model) addPanel(p *toolPanel) {
	m.conv.add(panelBlock{p})
	m.order = append(m.order, len(m.conv.blocks)-1)
}

// approval marks the decision on the newest unfinished call of the tool.
func (m *Model) approval(e events.Approval) {
	if e.Decision == "cowboy" && strings.Contains(e.Reason, "enabled") {
		m.status.cowboy = true
	}
	for k := len(m.order) - 1; k >= 0; k-- {
		p := m.conv.blocks[m.order[k]].(panelBlock).toolPanel
		if p.call.Name == e.Tool && p.result == nil {
			p.approval = e.Decision
			p.invalidate()
			return
		}
	}
}

// endStream closes the message being streamed, with a note if given.
func (m *Model) endStream(note string) {
	if m.stream == nil {
		return
	}
	m.stream.note = note
	m.stream.finish("")
	m.stream = nil
}

// key handles a key press. An open prompt owns the keys, except Ctrl+C
// and scrolling.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s == "ctrl+c" {
		return m.ctrlCPressed()
	}
	if m.scrollKey(s) {
		return nil
	}
	if p := m.current(); p != nil {
		if p.text() {
			if s == "ctrl+d" {
				return m.closePrompt(m.input.Value())
			}
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(k)
			return cmd
		}
		if c, ok := p.choiceFor(s); ok {
			return m.closePrompt(c)
		}
		return nil
	}
	if m.help {
		m.help = false
		return nil
	}
	switch s {
	case "?":
		m.help = true
	case "esc":
		if m.done {
			return tea.Quit
		}
		m.interrupt()
	case "q":
		if m.done {
			return tea.Quit
		}
	case "tab":
		m.selectPanel(+1)
	case "shift+tab":
		m.selectPanel(-1)
	case "enter", "space":
		m.toggle()
	}
	return nil
}

func (m *Model) scrollKey(s string) bool {
	page := max(m.convHeight(m.footer())-2, 1)
	switch s {
	case "pgup":
		m.scroll(-page)
	case "pgdown":
		m.scroll(page)
	case "up":
		m.scroll(-1)
	case "down":
		m.scroll(1)
	case "home":
		m.scroll(-1 << 30)
	case "end":
		m.conv.toBottom()
	default:
		return false
	}
	return true
}

func (m *Model) ctrlCPressed() tea.Cmd {
	now := m.now()
	if m.done || (!m.ctrlC.IsZero() && now.Sub(m.ctrlC) <= quitWindow) {
		for _, p := range m.prompts {
			p.answered = true // the asker learns from the quit
		}
		if m.hooks.Quit != nil {
			m.hooks.Quit()
		}
		return tea.Quit
	}
	m.ctrlC = now
	m.status.note = "ctrl+c again quits"
	return nil
}

// interrupt asks the agent's side to cancel the current step.
func (m *Model) interrupt() {
	m.endStream("(interrupted)")
	m.conv.add(&noteBlock{kind: noteWarn, text: "interrupting the current step…"})
	m.conv.toBottom()
	if m.hooks.Interrupt != nil {
		m.hooks.Interrupt()
	}
}

// selectPanel moves the tool selection by d (from the bottom when none).
func (m *Model) selectPanel(d int) {
	if len(m.order) == 0 {
		return
	}
	if m.sel >= 0 {
		m.panel(m.sel).selected = false
		m.panel(m.sel).invalidate()
	}
	switch {
	case m.sel < 0 && d < 0, m.sel < 0 && d > 0:
		m.sel = len(m.order) - 1
	default:
		m.sel = (m.sel + d + len(m.order)) % len(m.order)
	}
	p := m.panel(m.sel)
	p.selected = true
	p.invalidate()
	m.conv.reveal(&m.look, m.width, m.convHeight(m.footer()), m.order[m.sel])
}

func (m *Model) panel(k int) *toolPanel { return m.conv.blocks[m.order[k]].(panelBlock).toolPanel }

// toggle expands or collapses the selected panel, or the last one.
func (m *Model) toggle() {
	if len(m.order) == 0 {
		return
	}
	k := m.sel
	if k < 0 {
		k = len(m.order) - 1
	}
	p := m.panel(k)
	p.expanded = !p.expanded
	p.invalidate()
	m.conv.reveal(&m.look, m.width, m.convHeight(m.footer()), m.order[k])
}
