// Package approval decides whether a tool call may run: reads and writes
// pass, shell commands go through the policy, cowboy mode and the human.
package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/tools"
)

// Messages of SPEC §5 (RA.Aid's wording).
const (
	ExecuteQuestion = "Execute this command? (y=yes, n=no, c=enable cowboy mode for session)"
	CancelledByUser = "Command execution cancelled by user"
)

// Decision values of events.Approval.
const (
	DecisionAllowed = "allowed" // the policy allowed it without asking
	DecisionYes     = "yes"     // the human said yes
	DecisionNo      = "no"      // the human said no (or closed the input)
	DecisionCowboy  = "cowboy"  // cowboy mode let it run, or the human turned it on
	DecisionDenied  = "denied"  // the policy denied it, or nobody could be asked
)

// Action is what a policy says about a command. The zero value is Ask.
type Action int

const (
	Ask Action = iota
	Allow
	Deny
)

func (a Action) String() string {
	switch a {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	default:
		return "ask"
	}
}

// Verdict is a policy's decision on one command and why.
type Verdict struct {
	Action Action
	Rule   string // which rule decided, for the audit log
	Reason string // why, told to the model when denied
}

// Policy judges shell commands. A Deny holds even in cowboy mode.
type Policy interface {
	Decide(command string) Verdict
}

// Prompter asks the human a question and returns one of choices. It
// returns ctx.Err() when ctx ends first, and an error wrapping io.EOF
// when the input is closed.
type Prompter interface {
	Ask(ctx context.Context, question string, choices []string) (string, error)
}

// Options configures a Gate. The zero value asks about every command and,
// with no human, refuses them.
type Options struct {
	Cowboy      bool   // start in cowboy mode (--cowboy-mode)
	Interactive bool   // a human is at a terminal to answer
	Policy      Policy // nil: every command is "ask"
}

// Gate is the tools.Gate of a run. It holds the session's cowboy mode and
// is safe for concurrent use; questions are put one at a time.
type Gate struct {
	prompter    Prompter
	sink        events.Sink
	policy      Policy
	interactive bool

	mu     sync.Mutex // guards cowboy and serialises Emit
	cowboy bool
	asking chan struct{} // a one-slot semaphore: one question at a time
}

var _ tools.Gate = (*Gate)(nil)

// NewGate returns a Gate that asks p (when opts.Interactive) and reports
// every decision on an exec call to sink (nil: dropped).
func NewGate(p Prompter, sink events.Sink, opts Options) *Gate {
	if sink == nil {
		sink = events.Discard{}
	}
	return &Gate{
		prompter:    p,
		sink:        sink,
		policy:      opts.Policy,
		interactive: opts.Interactive && p != nil,
		cowboy:      opts.Cowboy,
		asking:      make(chan struct{}, 1),
	}
}

// Cowboy reports whether cowboy mode is on.
func (g *Gate) Cowboy() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cowboy
}

// SetCowboy turns cowboy mode on or off for the rest of the session.
func (g *Gate) SetCowboy(on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cowboy = on
}

// Check implements tools.Gate. Read, write and network calls pass (the
// file tools confine themselves to the root); exec calls, and calls whose
// side effect is unknown, are judged by the policy and then by cowboy mode
// or the human. The error is non-nil only when ctx ended or the prompter
// failed for a reason other than closed input.
func (g *Gate) Check(ctx context.Context, spec tools.Spec, args json.RawMessage) (tools.Decision, error) {
	switch spec.SideEffect {
	case tools.Read, tools.Write, tools.Network:
		return tools.Decision{Allow: true, Rule: "side-effect:" + string(spec.SideEffect)}, nil
	}
	shown, verdict := g.judge(spec, args)
	switch verdict.Action {
	case Deny:
		reason := denyMessage(verdict)
		g.emit(spec.Name, shown, DecisionDenied, reason)
		return tools.Decision{Reason: reason, Rule: policyRule(verdict)}, nil
	case Allow:
		g.emit(spec.Name, shown, DecisionAllowed, verdict.Reason)
		return tools.Decision{Allow: true, Rule: policyRule(verdict)}, nil
	}
	if g.Cowboy() {
		g.emit(spec.Name, shown, DecisionCowboy, "cowboy mode")
		return tools.Decision{Allow: true, Rule: "cowboy-mode"}, nil
	}
	if !g.interactive {
		g.emit(spec.Name, shown, DecisionDenied, noHumanMessage)
		return tools.Decision{Reason: noHumanMessage, Rule: "no-human"}, nil
	}
	return g.ask(ctx, spec.Name, shown)
}

// noHumanMessage tells the model why an "ask" command was refused and the
// user how to allow such commands.
const noHumanMessage = "Command not run: it needs the user's approval and no human is present to approve it " +
	"(non-interactive run). Do not retry it; find another way, or finish and say that it must be run by hand. " +
	"To let commands run without approval, the user can start reach with --cowboy-mode."

func (g *Gate) ask(ctx context.Context, tool, shown string) (tools.Decision, error) {
	select {
	case g.asking <- struct{}{}:
		defer func() { <-g.asking }()
	case <-ctx.Done():
		return tools.Decision{}, ctx.Err()
	}
	// Cowboy mode may have been turned on while this call waited its turn.
	if g.Cowboy() {
		g.emit(tool, shown, DecisionCowboy, "cowboy mode")
		return tools.Decision{Allow: true, Rule: "cowboy-mode"}, nil
	}
	question := fmt.Sprintf("%s wants to run:\n%s\n%s", tool, indent(shown), ExecuteQuestion)
	answer, err := g.prompter.Ask(ctx, question, []string{"y", "n", "c"})
	switch {
	case err != nil && ctx.Err() != nil:
		return tools.Decision{}, ctx.Err()
	case errors.Is(err, io.EOF):
		reason := CancelledByUser + " (the input was closed before an answer)"
		g.emit(tool, shown, DecisionNo, reason)
		return tools.Decision{Reason: reason, Rule: "human:eof"}, nil
	case err != nil:
		return tools.Decision{}, fmt.Errorf("ask for approval: %w", err)
	}
	switch strings.ToLower(answer) {
	case "y":
		g.emit(tool, shown, DecisionYes, "")
		return tools.Decision{Allow: true, Rule: "human:yes"}, nil
	case "c":
		g.SetCowboy(true)
		g.emit(tool, shown, DecisionCowboy, "cowboy mode enabled for the session")
		return tools.Decision{Allow: true, Rule: "human:cowboy"}, nil
	default:
		g.emit(tool, shown, DecisionNo, CancelledByUser)
		return tools.Decision{Reason: CancelledByUser, Rule: "human:no"}, nil
	}
}

// judge returns what to show the human and the policy's verdict. The
// policy judges the `command` argument; a call without one (an exec tool
// that is not a shell) is shown as its name and arguments, and asked.
func (g *Gate) judge(spec tools.Spec, args json.RawMessage) (string, Verdict) {
	var a struct {
		Command *string `json:"command"`
	}
	if err := json.Unmarshal(args, &a); err == nil && a.Command != nil {
		v := Verdict{Action: Ask, Rule: "default"}
		if g.policy != nil {
			v = g.policy.Decide(*a.Command)
		}
		return Sanitize(*a.Command), v
	}
	return Sanitize(spec.Name + " " + compactJSON(args)), Verdict{Action: Ask, Rule: "default"}
}

func (g *Gate) emit(tool, command, decision, reason string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sink.Emit(events.Approval{Tool: tool, Command: command, Decision: decision, Reason: reason})
}

func denyMessage(v Verdict) string {
	reason := v.Reason
	if reason == "" {
		reason = "the command is not allowed"
	}
	rule := ""
	if v.Rule != "" {
		rule = fmt.Sprintf(" (rule %s)", v.Rule)
	}
	return fmt.Sprintf("Command refused by policy%s: %s. This is refused even in cowboy mode; do not retry it, find another way.", rule, strings.TrimSuffix(reason, "."))
}

func policyRule(v Verdict) string {
	if v.Rule == "" {
		return "policy:" + v.Action.String()
	}
	return "policy:" + v.Rule
}

// Sanitize makes s safe to show on a terminal: control characters other
// than newline and tab, and bidirectional-text overrides, are removed, so
// a command cannot hide what it does from the person approving it.
func Sanitize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, s)
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

func compactJSON(raw json.RawMessage) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	var v any
	if err := json.Unmarshal(raw, &v); err != nil || enc.Encode(v) != nil {
		return string(raw)
	}
	return strings.TrimSpace(b.String())
}
