package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/reach-agent/reach/events"
)

// liveScript is a shell call whose output streams in before its result.
func liveScript(chunks ...string) []events.Event {
	code := 0
	evs := []events.Event{events.ToolCall{Phase: "implementation", ID: "c1", Name: "run_shell_command", Arguments: `{"command":"go test ./..."}`}}
	for _, c := range chunks {
		evs = append(evs, events.ToolOutput{ID: "c1", Text: c})
	}
	return append(evs,
		events.ToolResult{Phase: "implementation", ID: "c1", Name: "run_shell_command", Success: true, Output: "ok\n", ReturnCode: &code, DurationMS: 1200},
		events.Result{Status: "success", Summary: "done"})
}

func TestPlainShowsLiveOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		chunks []string
		want   string // progress between the call line and the result line
	}{
		{"whole lines", []string{"ok  \tpkg/a\t0.1s\n", "ok  \tpkg/b\t0.2s\n"}, "   | ok  \tpkg/a\t0.1s\n   | ok  \tpkg/b\t0.2s\n"},
		{"a line split across chunks", []string{"compiling", "... done\nnext\n"}, "   | compiling... done\n   | next\n"},
		{"an unfinished line is ended before the result", []string{"Continue? [y/N] "}, "   | Continue? [y/N] \n"},
		{"escape sequences are removed", []string{"\x1b[31mFAIL\x1b[0m pkg\n"}, "   | FAIL pkg\n"},
		{"a progress bar keeps its last state", []string{"10%\r50%\r100%\n", "crlf\r\n"}, "   | 100%\n   | crlf\n"},
		{"no output", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out, progress bytes.Buffer
			p := &Plain{Out: &out, Progress: &progress}
			for _, e := range liveScript(tt.chunks...) {
				p.Emit(e)
			}
			want := "-> run_shell_command {\"command\":\"go test ./...\"}\n" + tt.want + "   ok (1 lines, 1200ms)\n"
			if progress.String() != want {
				t.Errorf("progress\n%q\nwant\n%q", progress.String(), want)
			}
			if out.String() != "done\n" {
				t.Errorf("stdout %q: live output must stay off it", out.String())
			}
		})
	}
}

func TestStreamJSONWritesToolOutput(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	s := &StreamJSON{Out: &out}
	for _, e := range liveScript("line 1\n", "line \"2\"\n") {
		s.Emit(e)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		`{"type":"tool_output","id":"c1","text":"line 1\n"}`,
		`{"type":"tool_output","id":"c1","text":"line \"2\"\n"}`,
	}
	if len(lines) != 5 || lines[1] != want[0] || lines[2] != want[1] {
		t.Fatalf("lines\n%s\nwant tool_output lines 2 and 3:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first["type"] != "tool_call" {
		t.Fatalf("tool_output must follow its tool_call: %s", lines[0])
	}
}

func TestJSONIgnoresToolOutput(t *testing.T) {
	t.Parallel()
	var with, without bytes.Buffer
	j, k := &JSON{Out: &with}, &JSON{Out: &without}
	for _, e := range liveScript("a\n", "b\n") {
		j.Emit(e)
	}
	for _, e := range liveScript() {
		k.Emit(e)
	}
	if with.String() != without.String() || strings.Contains(with.String(), "tool_output") {
		t.Fatalf("live output changed the single JSON object:\n%s\nwant\n%s", with.String(), without.String())
	}
}
