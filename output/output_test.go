package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/reach-agent/reach/events"
)

func script() []events.Event {
	code := 1
	return []events.Event{
		events.Init{Model: "m", Provider: "openai", Cwd: "/p"},
		events.Phase{Name: "research"},
		events.TextDelta{Phase: "research", Text: "hel"},
		events.Message{Phase: "research", Text: "hello"},
		events.ToolCall{Phase: "research", ID: "1", Name: "run_shell_command", Arguments: "{\"command\":\"echo \x1b[31mred\"}"},
		events.ToolResult{Phase: "research", ID: "1", Name: "run_shell_command", Success: false, Error: "exit 1", ReturnCode: &code},
		events.Usage{InputTokens: 10, OutputTokens: 5, CostUSD: 0.01, Requests: 1},
		events.Result{Status: "success", ExitCode: 0, Summary: "all done", Usage: events.Usage{InputTokens: 10, OutputTokens: 5}, CostUSD: 0.01},
	}
}

func TestPlainSplitsAnswerFromProgress(t *testing.T) {
	t.Parallel()
	var out, progress bytes.Buffer
	p := &Plain{Out: &out, Progress: &progress, ShowCost: true}
	for _, e := range script() {
		p.Emit(e)
	}
	if out.String() != "all done\n" {
		t.Fatalf("stdout %q, want only the answer", out.String())
	}
	pr := progress.String()
	for _, want := range []string{"== research ==", "hello", "-> run_shell_command", "error: exit 1", "tokens: 10 in, 5 out; cost: $0.0100"} {
		if !strings.Contains(pr, want) {
			t.Errorf("progress lacks %q:\n%s", want, pr)
		}
	}
	if strings.ContainsRune(pr, 0x1b) {
		t.Fatalf("escape sequence from a tool argument reached the terminal: %q", pr)
	}
}

func TestPlainPrintsPlanForPlanOnly(t *testing.T) {
	t.Parallel()
	var out, progress bytes.Buffer
	p := &Plain{Out: &out, Progress: &progress}
	p.Emit(events.Result{Status: "success", Summary: "summary", Plan: "1. a\n2. b\n"})
	if out.String() != "1. a\n2. b\n" {
		t.Fatalf("stdout %q", out.String())
	}
}

func TestStreamJSON(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	s := &StreamJSON{Out: &out}
	for _, e := range script() {
		s.Emit(e)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(script())-1 {
		t.Fatalf("%d lines, want %d (no text_delta)", len(lines), len(script())-1)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, `{"type":"`) {
			t.Fatalf("type is not the first field: %s", l)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("bad JSON %s: %v", l, err)
		}
	}
	var last map[string]any
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if last["type"] != "result" || last["status"] != "success" || last["cost_usd"] != 0.01 {
		t.Fatalf("result line %v", last)
	}
}

func TestJSONWritesOneObject(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	j := &JSON{Out: &out}
	for _, e := range script() {
		j.Emit(e)
	}
	var v map[string]any
	dec := json.NewDecoder(&out)
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Fatal("more than one object")
	}
	if v["type"] != "result" || v["summary"] != "all done" || v["tool_calls"] != float64(1) || v["tool_errors"] != float64(1) || v["model"] != "m" {
		t.Fatalf("object %v", v)
	}
}
