// Package output renders a run's events for scripts and pipes: plain text
// lines, one JSON object at the end, or one JSON event per line.
package output

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/reach-agent/reach/events"
)

// Plain writes progress lines to Progress (stderr) and the final answer to
// Out (stdout), so `reach -m ... > answer.md` keeps only the answer. A
// running command's output is shown as it comes, indented under its call;
// the result line then only sums it up, so nothing is printed twice.
type Plain struct {
	Out      io.Writer
	Progress io.Writer
	ShowCost bool

	mu      sync.Mutex
	midLine bool // live tool output ended inside a line
}

// Emit implements events.Sink.
func (p *Plain) Emit(e events.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.Progress
	if out, ok := e.(events.ToolOutput); ok {
		p.live(out.Text)
		return
	}
	if p.midLine {
		fmt.Fprintln(w)
		p.midLine = false
	}
	switch e := e.(type) {
	case events.Init:
		fmt.Fprintf(w, "reach: %s (%s) in %s\n", e.Model, e.Provider, e.Cwd)
	case events.Phase:
		if e.TaskIndex > 0 {
			fmt.Fprintf(w, "\n== %s: task %d of %d ==\n%s\n", e.Name, e.TaskIndex, e.TaskCount, indent(oneLine(e.Task, 300)))
		} else {
			fmt.Fprintf(w, "\n== %s ==\n", e.Name)
		}
	case events.Message:
		fmt.Fprintf(w, "%s\n", strings.TrimRight(e.Text, "\n"))
	case events.ToolCall:
		fmt.Fprintf(w, "-> %s %s\n", e.Name, oneLine(e.Arguments, 160))
	case events.ToolResult:
		if e.Success {
			fmt.Fprintf(w, "   ok (%d lines, %dms)\n", lineCount(e.Output), e.DurationMS)
		} else {
			fmt.Fprintf(w, "   error: %s\n", oneLine(e.Error, 300))
		}
	case events.Approval:
		fmt.Fprintf(w, "   approval %s: %s\n", e.Decision, oneLine(e.Command, 160))
	case events.Notice:
		fmt.Fprintf(w, "%s: %s\n", e.Level, e.Text)
	case events.Usage:
		if p.ShowCost {
			fmt.Fprintf(w, "   tokens in %d, out %d, cost $%.4f\n", e.InputTokens, e.OutputTokens, e.CostUSD)
		}
	case events.Result:
		p.result(e)
	}
}

// live prints a running tool's output as it comes, indented under its
// call, without escape sequences; a carriage return (a progress bar)
// keeps what follows it.
func (p *Plain) live(text string) {
	var b strings.Builder
	for len(text) > 0 {
		line, rest, nl := strings.Cut(text, "\n")
		text = rest
		if !p.midLine {
			b.WriteString(liveIndent)
		}
		if i := strings.LastIndexByte(strings.TrimRight(line, "\r"), '\r'); i >= 0 {
			line = line[i+1:]
		}
		b.WriteString(sanitize(line))
		p.midLine = !nl
		if nl {
			b.WriteByte('\n')
		}
	}
	_, _ = io.WriteString(p.Progress, b.String())
}

// liveIndent sets a tool's live output off from reach's own lines.
const liveIndent = "   | "

// sanitize removes escape sequences and control characters but tabs.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\t' && unicode.IsControl(r) {
			return -1
		}
		return r
	}, ansi.Strip(s))
}

func (p *Plain) result(e events.Result) {
	switch {
	case e.Plan != "" && e.Status == "success":
		fmt.Fprintf(p.Out, "%s\n", strings.TrimRight(e.Plan, "\n"))
	case e.Summary != "":
		fmt.Fprintf(p.Out, "%s\n", strings.TrimRight(e.Summary, "\n"))
	}
	if e.Error != "" {
		fmt.Fprintf(p.Progress, "reach: %s\n", e.Error)
	}
	if p.ShowCost {
		fmt.Fprintf(p.Progress, "tokens: %d in, %d out; cost: $%.4f; %d requests; %.1fs\n",
			e.Usage.InputTokens, e.Usage.OutputTokens, e.CostUSD, e.Usage.Requests, e.Duration)
	}
}

// oneLine squeezes s onto one line of at most n runes, without control
// characters (a model can put escape sequences in arguments).
func oneLine(s string, n int) string {
	var b strings.Builder
	count := 0
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			if !space && count > 0 {
				b.WriteByte(' ')
				count++
			}
			space = true
			continue
		}
		space = false
		if count >= n {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		count++
	}
	return strings.TrimSpace(b.String())
}

func indent(s string) string { return "   " + s }

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimRight(s, "\n"), "\n") + 1
}
