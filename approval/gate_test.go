package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/tools"
)

// fakePrompter answers from a script and records the questions.
type fakePrompter struct {
	mu        sync.Mutex
	answers   []string
	errs      []error
	questions []string
	block     bool // wait for ctx instead of answering
}

func (f *fakePrompter) Ask(ctx context.Context, question string, choices []string) (string, error) {
	f.mu.Lock()
	f.questions = append(f.questions, question)
	i := len(f.questions) - 1
	block := f.block
	f.mu.Unlock()
	if block {
		<-ctx.Done()
		return "", ctx.Err()
	}
	if i < len(f.errs) && f.errs[i] != nil {
		return "", f.errs[i]
	}
	if i < len(f.answers) {
		return f.answers[i], nil
	}
	return "", fmt.Errorf("fake prompter: unexpected question %d: %s", i+1, question)
}

func (f *fakePrompter) asked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.questions...)
}

// fakePolicy returns a fixed verdict and records what it judged.
type fakePolicy struct {
	v      Verdict
	mu     sync.Mutex
	judged []string
}

func (p *fakePolicy) Decide(command string) Verdict {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.judged = append(p.judged, command)
	return p.v
}

func spec(name string, se tools.SideEffect) tools.Spec {
	return tools.Spec{Name: name, SideEffect: se}
}

func shellArgs(cmd string) json.RawMessage {
	raw, _ := json.Marshal(map[string]any{"command": cmd})
	return raw
}

var shellSpec = spec("run_shell_command", tools.Exec)

func TestGate(t *testing.T) {
	t.Parallel()
	deny := &fakePolicy{v: Verdict{Action: Deny, Rule: "deny:sudo", Reason: "sudo is never allowed"}}
	allow := &fakePolicy{v: Verdict{Action: Allow, Rule: "allow:ls"}}
	tests := []struct {
		name       string
		opts       Options
		prompter   *fakePrompter
		spec       tools.Spec
		args       json.RawMessage
		wantAllow  bool
		wantReason string // substring of the refusal
		wantRule   string
		wantAsked  int
		wantEvent  string // Decision of the one approval event; "" = none
		wantCowboy bool   // cowboy mode afterwards
	}{
		{name: "read passes", spec: spec("read_file_tool", tools.Read), args: json.RawMessage(`{}`), wantAllow: true, wantRule: "side-effect:read"},
		{name: "write passes", spec: spec("file_str_replace", tools.Write), args: json.RawMessage(`{}`), wantAllow: true, wantRule: "side-effect:write"},
		{name: "network passes", spec: spec("web_search_tavily", tools.Network), args: json.RawMessage(`{}`), wantAllow: true, wantRule: "side-effect:network"},
		{name: "y runs", opts: Options{Interactive: true}, prompter: &fakePrompter{answers: []string{"y"}},
			spec: shellSpec, args: shellArgs("make test"), wantAllow: true, wantRule: "human:yes", wantAsked: 1, wantEvent: DecisionYes},
		{name: "Y runs", opts: Options{Interactive: true}, prompter: &fakePrompter{answers: []string{"Y"}},
			spec: shellSpec, args: shellArgs("make test"), wantAllow: true, wantAsked: 1, wantEvent: DecisionYes},
		{name: "n refuses", opts: Options{Interactive: true}, prompter: &fakePrompter{answers: []string{"n"}},
			spec: shellSpec, args: shellArgs("make test"), wantReason: CancelledByUser, wantRule: "human:no", wantAsked: 1, wantEvent: DecisionNo},
		{name: "c runs and turns cowboy on", opts: Options{Interactive: true}, prompter: &fakePrompter{answers: []string{"c"}},
			spec: shellSpec, args: shellArgs("make test"), wantAllow: true, wantRule: "human:cowboy", wantAsked: 1, wantEvent: DecisionCowboy, wantCowboy: true},
		{name: "EOF is no", opts: Options{Interactive: true}, prompter: &fakePrompter{errs: []error{fmt.Errorf("read: %w", io.EOF)}},
			spec: shellSpec, args: shellArgs("make test"), wantReason: CancelledByUser, wantRule: "human:eof", wantAsked: 1, wantEvent: DecisionNo},
		{name: "cowboy runs without asking", opts: Options{Cowboy: true, Interactive: true}, prompter: &fakePrompter{},
			spec: shellSpec, args: shellArgs("make test"), wantAllow: true, wantRule: "cowboy-mode", wantEvent: DecisionCowboy, wantCowboy: true},
		{name: "no human, no cowboy", opts: Options{}, prompter: &fakePrompter{},
			spec: shellSpec, args: shellArgs("make test"), wantReason: "no human is present", wantRule: "no-human", wantEvent: DecisionDenied},
		{name: "interactive without a prompter counts as no human", opts: Options{Interactive: true},
			spec: shellSpec, args: shellArgs("make test"), wantReason: "--cowboy-mode", wantEvent: DecisionDenied},
		{name: "no human, cowboy", opts: Options{Cowboy: true},
			spec: shellSpec, args: shellArgs("make test"), wantAllow: true, wantEvent: DecisionCowboy, wantCowboy: true},
		{name: "deny holds in cowboy mode", opts: Options{Cowboy: true, Interactive: true, Policy: deny}, prompter: &fakePrompter{},
			spec: shellSpec, args: shellArgs("sudo rm x"), wantReason: "rule deny:sudo): sudo is never allowed", wantRule: "policy:deny:sudo", wantEvent: DecisionDenied, wantCowboy: true},
		{name: "allow runs without a human", opts: Options{Policy: allow},
			spec: shellSpec, args: shellArgs("ls"), wantAllow: true, wantRule: "policy:allow:ls", wantEvent: DecisionAllowed},
		{name: "policy ask in cowboy mode runs", opts: Options{Cowboy: true, Policy: &fakePolicy{v: Verdict{Action: Ask}}},
			spec: shellSpec, args: shellArgs("make"), wantAllow: true, wantEvent: DecisionCowboy, wantCowboy: true},
		{name: "unknown side effect is asked", opts: Options{Interactive: true}, prompter: &fakePrompter{answers: []string{"n"}},
			spec: spec("mystery", ""), args: json.RawMessage(`{"x":1}`), wantReason: CancelledByUser, wantAsked: 1, wantEvent: DecisionNo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &events.Recorder{}
			var p Prompter
			if tt.prompter != nil {
				p = tt.prompter
			}
			g := NewGate(p, rec, tt.opts)
			d, err := g.Check(context.Background(), tt.spec, tt.args)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if d.Allow != tt.wantAllow {
				t.Errorf("Allow = %v, want %v (%+v)", d.Allow, tt.wantAllow, d)
			}
			if !tt.wantAllow && (tt.wantReason == "" || !strings.Contains(d.Reason, tt.wantReason)) {
				t.Errorf("Reason = %q, want it to contain %q", d.Reason, tt.wantReason)
			}
			if tt.wantRule != "" && d.Rule != tt.wantRule {
				t.Errorf("Rule = %q, want %q", d.Rule, tt.wantRule)
			}
			if tt.prompter != nil {
				if got := len(tt.prompter.asked()); got != tt.wantAsked {
					t.Errorf("asked %d times, want %d", got, tt.wantAsked)
				}
			}
			evs := rec.Events()
			switch {
			case tt.wantEvent == "" && len(evs) != 0:
				t.Errorf("unexpected events %+v", evs)
			case tt.wantEvent != "":
				if len(evs) != 1 {
					t.Fatalf("events = %+v, want one approval", evs)
				}
				a, ok := evs[0].(events.Approval)
				if !ok || a.Decision != tt.wantEvent || a.Tool != tt.spec.Name {
					t.Errorf("event = %+v, want decision %q for %s", evs[0], tt.wantEvent, tt.spec.Name)
				}
			}
			if g.Cowboy() != tt.wantCowboy {
				t.Errorf("Cowboy() = %v, want %v", g.Cowboy(), tt.wantCowboy)
			}
		})
	}
}

func TestGateQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		spec     tools.Spec
		args     json.RawMessage
		want     []string
		wantNot  []string
		consults bool // the policy judges this call
	}{
		{
			name:     "shell command is shown exactly",
			spec:     shellSpec,
			args:     shellArgs("go test ./... && echo 'done'"),
			want:     []string{"run_shell_command wants to run:\n  go test ./... && echo 'done'\n", ExecuteQuestion},
			consults: true,
		},
		{
			name:     "control characters are stripped",
			spec:     shellSpec,
			args:     shellArgs("echo safe\x1b[2K\r\u202erm -rf x\x07"),
			want:     []string{"  echo safe[2Krm -rf x\n"},
			wantNot:  []string{"\x1b", "\r", "\u202e", "\x07"},
			consults: true,
		},
		{
			name:     "multi-line command is indented",
			spec:     shellSpec,
			args:     shellArgs("cd x\n\tmake"),
			want:     []string{"  cd x\n  \tmake\n"},
			consults: true,
		},
		{
			name: "other exec tools show name and arguments",
			spec: spec("run_programming_task", tools.Exec),
			args: json.RawMessage(`{"instructions": "fix <it>", "files": ["a.go"]}`),
			want: []string{`run_programming_task {"files":["a.go"],"instructions":"fix <it>"}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := &fakePrompter{answers: []string{"n"}}
			pol := &fakePolicy{v: Verdict{Action: Ask}}
			rec := &events.Recorder{}
			g := NewGate(p, rec, Options{Interactive: true, Policy: pol})
			if _, err := g.Check(context.Background(), tt.spec, tt.args); err != nil {
				t.Fatal(err)
			}
			q := p.asked()
			if len(q) != 1 {
				t.Fatalf("asked %d questions", len(q))
			}
			for _, s := range tt.want {
				if !strings.Contains(q[0], s) {
					t.Errorf("question %q does not contain %q", q[0], s)
				}
			}
			for _, s := range tt.wantNot {
				if strings.Contains(q[0], s) {
					t.Errorf("question %q contains %q", q[0], s)
				}
				if a := rec.Events()[0].(events.Approval); strings.Contains(a.Command, s) {
					t.Errorf("event command %q contains %q", a.Command, s)
				}
			}
			var raw struct{ Command string }
			_ = json.Unmarshal(tt.args, &raw)
			if tt.consults && (len(pol.judged) != 1 || pol.judged[0] != raw.Command) {
				t.Errorf("policy judged %q, want the raw command %q", pol.judged, raw.Command)
			}
			if !tt.consults && len(pol.judged) != 0 {
				t.Errorf("policy judged %q for a call without a command", pol.judged)
			}
		})
	}
}

func TestGateErrors(t *testing.T) {
	t.Parallel()
	t.Run("prompter failure is an error", func(t *testing.T) {
		t.Parallel()
		g := NewGate(&fakePrompter{errs: []error{errors.New("tty gone")}}, nil, Options{Interactive: true})
		_, err := g.Check(context.Background(), shellSpec, shellArgs("make"))
		if err == nil || !strings.Contains(err.Error(), "tty gone") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("cancelled while asking", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		p := &fakePrompter{block: true}
		g := NewGate(p, nil, Options{Interactive: true})
		done := make(chan error, 1)
		go func() {
			_, err := g.Check(ctx, shellSpec, shellArgs("make"))
			done <- err
		}()
		for len(p.asked()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

// TestGateCowboyConcurrent checks that once a human answers c, the calls
// waiting their turn run without being asked.
func TestGateCowboyConcurrent(t *testing.T) {
	t.Parallel()
	p := &fakePrompter{answers: []string{"c"}}
	g := NewGate(p, &events.Recorder{}, Options{Interactive: true})
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := g.Check(context.Background(), shellSpec, shellArgs(fmt.Sprintf("echo %d", i)))
			if err == nil && d.Allow {
				allowed.Add(1)
			}
			_ = g.Cowboy()
		}()
	}
	wg.Wait()
	if n := len(p.asked()); n != 1 {
		t.Errorf("asked %d times, want 1", n)
	}
	if allowed.Load() != 20 || !g.Cowboy() {
		t.Errorf("allowed %d of 20, cowboy %v", allowed.Load(), g.Cowboy())
	}
}

// TestGateInExecutor checks the refusal reaches the model as the result
// and the handler never runs.
func TestGateInExecutor(t *testing.T) {
	t.Parallel()
	reg := tools.NewRegistry()
	var ran atomic.Bool
	err := reg.Register(tools.Tool{
		Spec: tools.Spec{Name: "run_shell_command", SideEffect: tools.Exec,
			Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
		Run: func(context.Context, json.RawMessage) tools.Result { ran.Store(true); return tools.OK("ran") },
	})
	if err != nil {
		t.Fatal(err)
	}
	ex := &tools.Executor{Registry: reg, Gate: NewGate(&fakePrompter{answers: []string{"n"}}, nil, Options{Interactive: true})}
	res := ex.Execute(context.Background(), tools.Call{Name: "run_shell_command", Arguments: `{"command":"rm -rf build"}`}, []string{"run_shell_command"})
	if res.Success || res.Error != CancelledByUser || ran.Load() {
		t.Errorf("result %+v, ran %v", res, ran.Load())
	}
}

func TestSanitize(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"ls -la", "ls -la"},
		{"a\tb\nc", "a\tb\nc"},
		{"\x1b[31mred\x1b[0m", "[31mred[0m"},
		{"x\ry", "xy"},
		{"\u202eevil\u202c", "evil"},
		{"del\x7f\u0085", "del"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"héllo 世界", "héllo 世界"},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
