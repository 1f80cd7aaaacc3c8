//go:build unix

package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

func TestRunShellCommand(t *testing.T) {
	t.Parallel()
	root, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	seq := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "%d\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name     string
		args     string
		success  bool
		code     *int
		output   string // exact, when set
		outHas   string
		errExact string
		errHas   string
	}{
		{name: "success", args: `{"command":"echo hi"}`, success: true, code: ptr(0), output: "hi\n"},
		{name: "runs in the root", args: `{"command":"pwd"}`, success: true, code: ptr(0), output: root.Dir() + "\n"},
		{name: "no output", args: `{"command":"true"}`, success: true, code: ptr(0), output: "(no output)"},
		{name: "failure keeps output and code", args: `{"command":"echo bad >&2; exit 3"}`, code: ptr(3), output: "bad\n", errExact: "Command exited with code 3"},
		{name: "last 200 lines", args: `{"command":"seq 1 1000"}`, success: true, code: ptr(0),
			output: "[800 earlier lines omitted; showing the last 200]\n" + seq(801, 1000)},
		{name: "exactly 200 lines", args: `{"command":"seq 1 200"}`, success: true, code: ptr(0), output: seq(1, 200)},
		{name: "timeout as float", args: `{"command":"echo ok","timeout":5.0}`, success: true, code: ptr(0), output: "ok\n"},
		{name: "timeout", args: `{"command":"echo started; sleep 100","timeout":1}`, code: ptr(143), output: "started\n",
			errExact: "Command timed out after 1 seconds; the process group was killed"},
		{name: "timeout too small", args: `{"command":"true","timeout":0}`, errHas: "timeout must be a whole number of seconds from 1 to 600, got 0"},
		{name: "timeout too large", args: `{"command":"true","timeout":601}`, errHas: "from 1 to 600, got 601"},
		{name: "timeout fractional", args: `{"command":"true","timeout":1.5}`, errHas: "got 1.5"},
		{name: "empty command", args: `{"command":"  "}`, errHas: "command is empty"},
		{name: "invalid UTF-8 is made valid", args: `{"command":"printf 'a\\377b'"}`, success: true, code: ptr(0), output: "a\uFFFDb"},
	}
	tool := Tool(root, &Runner{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := tool.Run(context.Background(), json.RawMessage(tt.args))
			if res.Success != tt.success {
				t.Errorf("success = %v, want %v (%+v)", res.Success, tt.success, res)
			}
			switch {
			case tt.code == nil && res.ReturnCode != nil:
				t.Errorf("return code %d set on a call that did not run", *res.ReturnCode)
			case tt.code != nil && (res.ReturnCode == nil || *res.ReturnCode != *tt.code):
				t.Errorf("return code = %v, want %d", res.ReturnCode, *tt.code)
			}
			if tt.output != "" && res.Output != tt.output {
				t.Errorf("output = %q, want %q", res.Output, tt.output)
			}
			if tt.errExact != "" && res.Error != tt.errExact {
				t.Errorf("error = %q, want %q", res.Error, tt.errExact)
			}
			if tt.errHas != "" && !strings.Contains(res.Error, tt.errHas) {
				t.Errorf("error = %q, want it to contain %q", res.Error, tt.errHas)
			}
			if tt.success && res.Error != "" {
				t.Errorf("a successful call has an error: %q", res.Error)
			}
		})
	}
}

func TestRunShellCommandHugeOutput(t *testing.T) {
	t.Parallel()
	root, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res := Tool(root, &Runner{}).Run(context.Background(), json.RawMessage(`{"command":"yes 0123456789 | head -n 5000000"}`))
	if !res.Success {
		t.Fatalf("%+v", res)
	}
	if !strings.HasPrefix(res.Output, "[output truncated: 55000000 bytes in all, only the end is shown]\n") {
		t.Errorf("output starts %q", res.Output[:min(len(res.Output), 100)])
	}
	if n := strings.Count(res.Output, "\n"); n != MaxResultLines+1 {
		t.Errorf("output has %d lines, want %d plus the marker", n, MaxResultLines)
	}
}

func TestToolSpec(t *testing.T) {
	t.Parallel()
	root, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tool := Tool(root, &Runner{})
	s := tool.Spec
	if s.Name != "run_shell_command" || s.SideEffect != tools.Exec || len(s.Groups) != 1 || !s.HasGroup(tools.GroupBase) {
		t.Errorf("spec = %+v", s)
	}
	if s.Timeout.Seconds() <= MaxTimeoutSeconds {
		t.Errorf("spec timeout %v would cut a %ds command short", s.Timeout, MaxTimeoutSeconds)
	}
	reg := tools.NewRegistry()
	if err := reg.Register(tool); err != nil {
		t.Fatal(err)
	}
	ex := &tools.Executor{Registry: reg}
	for _, tc := range []struct{ args, want string }{
		{`{"command":"true","timeout":700}`, "timeout"},
		{`{"command":"true","extra":1}`, "extra"},
		{`{}`, "command"},
	} {
		res := ex.Execute(context.Background(), tools.Call{Name: s.Name, Arguments: tc.args}, []string{s.Name})
		if res.Success || !strings.Contains(res.Error, tc.want) {
			t.Errorf("%s: %+v, want a schema error naming %q", tc.args, res, tc.want)
		}
	}
	res := ex.Execute(context.Background(), tools.Call{Name: s.Name, Arguments: `{"command":"echo via executor"}`}, []string{s.Name})
	if !res.Success || res.Output != "via executor\n" || res.ReturnCode == nil || *res.ReturnCode != 0 {
		t.Errorf("through the executor: %+v", res)
	}
}

func ptr(n int) *int { return &n }
