package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

type denyGate struct{ reason string }

func (g denyGate) Check(context.Context, Spec, json.RawMessage) (Decision, error) {
	if g.reason == "" {
		return Decision{Allow: true}, nil
	}
	return Decision{Allow: false, Reason: g.reason}, nil
}

type errGate struct{}

func (errGate) Check(context.Context, Spec, json.RawMessage) (Decision, error) {
	return Decision{}, errors.New("prompt closed")
}

func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string","enum":["a","b"]}},"required":["n"],"additionalProperties":false}`)
	tools := []Tool{
		{Spec: Spec{Name: "ok", Summary: "s", Parameters: schema}, Run: func(_ context.Context, raw json.RawMessage) Result {
			a, err := Decode[struct{ N int }](raw)
			if err != nil {
				return Fail(err.Error())
			}
			return OK(strings.Repeat("x\n", a.N))
		}},
		{Spec: Spec{Name: "slow", Summary: "s", Timeout: 50 * time.Millisecond}, Run: func(ctx context.Context, _ json.RawMessage) Result {
			<-ctx.Done()
			return Result{}
		}},
		{Spec: Spec{Name: "boom", Summary: "s"}, Run: func(context.Context, json.RawMessage) Result { panic("kaboom") }},
	}
	if err := r.Register(tools...); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExecutor(t *testing.T) {
	t.Parallel()
	reg := testRegistry(t)
	all := []string{"ok", "slow", "boom"}
	tests := []struct {
		name    string
		gate    Gate
		call    Call
		offered []string
		wantOK  bool
		want    string
	}{
		{"runs", nil, Call{Name: "ok", Arguments: `{"n":2}`}, all, true, "x\nx\n"},
		{"unknown", nil, Call{Name: "nope", Arguments: `{}`}, all, false, `unknown tool "nope". Available tools: boom, ok, slow`},
		{"not offered", nil, Call{Name: "ok", Arguments: `{"n":1}`}, []string{"slow"}, false, `tool "ok" is not available in this phase. Available tools: slow`},
		{"bad JSON", nil, Call{Name: "ok", Arguments: `{"n":1`}, all, false, "ok: arguments are not valid JSON"},
		{"missing required", nil, Call{Name: "ok", Arguments: `{}`}, all, false, `missing required argument "n"`},
		{"below minimum", nil, Call{Name: "ok", Arguments: `{"n":0}`}, all, false, "at /n: minimum"},
		{"enum", nil, Call{Name: "ok", Arguments: `{"n":1,"s":"c"}`}, all, false, "at /s: enum: c does not equal any of: [a b]"},
		{"extra property", nil, Call{Name: "ok", Arguments: `{"n":1,"zz":1}`}, all, false, `unknown argument "zz"`},
		{"empty arguments mean {}", nil, Call{Name: "boom", Arguments: ``}, all, false, "internal error in boom: kaboom"},
		{"gate refuses", denyGate{reason: "Command execution cancelled by user"}, Call{Name: "ok", Arguments: `{"n":1}`}, all, false, "Command execution cancelled by user"},
		{"gate allows", denyGate{}, Call{Name: "ok", Arguments: `{"n":1}`}, all, true, "x\n"},
		{"gate fails", errGate{}, Call{Name: "ok", Arguments: `{"n":1}`}, all, false, "approval failed: prompt closed"},
		{"timeout", nil, Call{Name: "slow", Arguments: `{}`}, all, false, "slow timed out after 50ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := &Executor{Registry: reg, Gate: tc.gate}
			res := e.Execute(context.Background(), tc.call, tc.offered)
			if res.Success != tc.wantOK {
				t.Fatalf("success=%v, want %v: %+v", res.Success, tc.wantOK, res)
			}
			got := res.Output
			if !res.Success {
				got = res.Error
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want it to contain %q", got, tc.want)
			}
		})
	}
}

func TestExecutorShapesLongOutput(t *testing.T) {
	t.Parallel()
	e := &Executor{Registry: testRegistry(t)}
	res := e.Execute(context.Background(), Call{Name: "ok", Arguments: `{"n":20000}`}, []string{"ok"})
	if !res.Success || strings.Count(res.Output, "\n") > MaxOutputLines+1 || !strings.Contains(res.Output, "lines truncated") {
		t.Fatalf("not truncated: %d lines", strings.Count(res.Output, "\n"))
	}
}

func TestRegisterRejects(t *testing.T) {
	t.Parallel()
	run := func(context.Context, json.RawMessage) Result { return OK("") }
	tests := []struct {
		name string
		tool Tool
		want string
	}{
		{"empty name", Tool{Run: run}, "empty name"},
		{"no handler", Tool{Spec: Spec{Name: "x"}}, "no handler"},
		{"bad schema", Tool{Spec: Spec{Name: "x", Parameters: json.RawMessage(`{"type":12}`)}, Run: run}, "compile parameters schema"},
		{"not JSON", Tool{Spec: Spec{Name: "x", Parameters: json.RawMessage(`{`)}, Run: run}, "parse parameters schema"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := NewRegistry().Register(tc.tool)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	r := NewRegistry()
	ok := Tool{Spec: Spec{Name: "x"}, Run: run}
	if err := r.Register(ok); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(ok); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Fatalf("duplicate: %v", err)
	}
	if s, _ := r.Lookup("x"); s.Spec.Backend != "builtin" || s.Spec.Version != "1" {
		t.Fatalf("defaults not filled: %+v", s.Spec)
	}
}

func TestTypedDecodesArguments(t *testing.T) {
	t.Parallel()
	tool := Typed(Spec{Name: "typed"}, func(_ context.Context, a struct {
		N int `json:"n"`
	}) Result {
		return OK(strings.Repeat("x", a.N))
	})
	if res := tool.Run(context.Background(), json.RawMessage(`{"n":3}`)); !res.Success || res.Output != "xxx" {
		t.Fatalf("decoded call: %+v", res)
	}
	if res := tool.Run(context.Background(), json.RawMessage(`{"n":"three"}`)); res.Success || !strings.Contains(res.Error, "decode arguments") {
		t.Fatalf("bad arguments: %+v", res)
	}
}
