package custom

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/tools"
)

func write(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const manifest = `{"tools":[
 {"name":"word_count","summary":"Count the words of a text.","side_effect":"read","idempotent":true,
  "parameters":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]},
  "command":"python3 -c 'import json,sys; a=json.load(sys.stdin); print(json.dumps({\"success\":True,\"can_retry\":False,\"return_code\":0,\"output\":str(len(a[\"text\"].split()))}))'"},
 {"name":"flaky","summary":"Fails, but may work later.","command":"echo '{\"success\":false,\"can_retry\":true,\"return_code\":7,\"output\":\"backend busy\"}'"},
 {"name":"garbage","summary":"Answers nonsense.","command":"echo hello; echo oops >&2; exit 1"},
 {"name":"slow","summary":"Sleeps.","timeout":0.3,"command":"sleep 10"}
]}`

func TestCustomTools(t *testing.T) {
	m, err := Load(write(t, "tools.json", manifest))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := m.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := reg.Register(ts...); err != nil {
		t.Fatal(err)
	}
	ex := &tools.Executor{Registry: reg}
	names := tools.Names(reg.Specs())
	tests := []struct {
		tool, args string
		ok         bool
		want       string
		code       int
	}{
		{"word_count", `{"text":"one two three"}`, true, "3", 0},
		{"word_count", `{}`, false, "text", -1},
		{"flaky", `{}`, false, "backend busy (the tool says a retry may succeed)", 7},
		{"garbage", `{}`, false, "did not answer with a JSON object", -1},
		{"slow", `{}`, false, "timed out", -1},
	}
	for _, tt := range tests {
		t.Run(tt.tool+tt.args, func(t *testing.T) {
			start := time.Now()
			res := ex.Execute(context.Background(), tools.Call{Name: tt.tool, Arguments: tt.args}, names)
			if res.Success != tt.ok || !strings.Contains(res.Output+res.Error, tt.want) {
				t.Fatalf("%s = %+v, want success=%v containing %q", tt.tool, res, tt.ok, tt.want)
			}
			if tt.code >= 0 && (res.ReturnCode == nil || *res.ReturnCode != tt.code) {
				t.Errorf("return code = %v, want %d", res.ReturnCode, tt.code)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %s: the process group was not killed", time.Since(start))
			}
		})
	}
	garbage := ex.Execute(context.Background(), tools.Call{Name: "garbage", Arguments: `{}`}, names)
	if !strings.Contains(garbage.Error, "stdout: hello") || !strings.Contains(garbage.Error, "stderr: oops") {
		t.Errorf("garbage error = %q, want what the tool printed", garbage.Error)
	}
	if s, _ := reg.Lookup("flaky"); s.Spec.SideEffect != tools.Exec || s.Spec.Backend != "custom" {
		t.Errorf("flaky spec = %+v, want exec side effect by default and the custom backend", s.Spec)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, file, body, want string }{
		{"not json", "t.json", `{`, "not valid JSON"},
		{"no summary", "t.json", `{"tools":[{"name":"a","command":"x"}]}`, "give a summary"},
		{"no command", "t.json", `{"tools":[{"name":"a","summary":"s"}]}`, "give the command"},
		{"bad name", "t.json", `{"tools":[{"name":"1a","summary":"s","command":"x"}]}`, "name must start"},
		{"duplicate", "t.json", `{"tools":[{"name":"a","summary":"s","command":"x"},{"name":"a","summary":"s","command":"x"}]}`, "used twice"},
		{"bad side effect", "t.json", `{"tools":[{"name":"a","summary":"s","command":"x","side_effect":"delete"}]}`, "side_effect"},
		{"toml ok", "t.toml", "[[tools]]\nname = \"a\"\nsummary = \"s\"\ncommand = \"x\"\n[tools.parameters]\ntype = \"object\"\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Load(write(t, tt.file, tt.body))
			if tt.want == "" {
				if err != nil || len(m.Tools) != 1 {
					t.Fatalf("Load = %+v, %v", m, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
