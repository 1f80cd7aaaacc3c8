package recall

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

func setup(t *testing.T) (*tools.Executor, *memory.Session, []string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.InProcess()
	reg := tools.NewRegistry()
	if err := reg.Register(Tools(root, mem)...); err != nil {
		t.Fatal(err)
	}
	return &tools.Executor{Registry: reg}, mem, tools.Names(reg.Specs())
}

func TestMemoryTools(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tool, args string
		ok               bool
		want             string
		check            func(*memory.Session) bool
	}{
		{"facts", "emit_key_facts", `{"facts":["tests run with go test","uses cobra"]}`, true, "Stored 2 key fact(s): #1, #2.",
			func(m *memory.Session) bool { return len(m.KeyFacts()) == 2 && m.KeyFacts()[1].Content == "uses cobra" }},
		{"blank fact", "emit_key_facts", `{"facts":["ok","  "]}`, false, "fact 2 is empty",
			func(m *memory.Session) bool { return len(m.KeyFacts()) == 0 }},
		{"no facts", "emit_key_facts", `{"facts":[]}`, false, "emit_key_facts:",
			func(m *memory.Session) bool { return len(m.KeyFacts()) == 0 }},
		{"snippet", "emit_key_snippet", `{"filepath":"./a.go","line_number":1,"snippet":"package a","description":" the package "}`, true, "(a.go:1)",
			func(m *memory.Session) bool {
				s := m.KeySnippets()
				return len(s) == 1 && s[0].Filepath == "a.go" && s[0].Description == "the package"
			}},
		{"snippet outside", "emit_key_snippet", `{"filepath":"../x.go","line_number":1,"snippet":"x"}`, false, "outside the project root",
			func(m *memory.Session) bool { return len(m.KeySnippets()) == 0 }},
		{"snippet line 0", "emit_key_snippet", `{"filepath":"a.go","line_number":0,"snippet":"x"}`, false, "line_number",
			func(m *memory.Session) bool { return len(m.KeySnippets()) == 0 }},
		{"related", "emit_related_files", `{"files":["a.go","missing.go","sub","a.go"]}`, true, "Registered 1 related file(s): a.go. Skipped: missing.go does not exist; sub is a directory",
			func(m *memory.Session) bool { return strings.Join(m.RelatedFiles(context.Background()), ",") == "a.go" }},
		{"related none", "emit_related_files", `{"files":["nope.go"]}`, false, "no file registered: nope.go does not exist",
			func(m *memory.Session) bool { return len(m.RelatedFiles(context.Background())) == 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ex, mem, names := setup(t)
			res := ex.Execute(context.Background(), tools.Call{Name: tt.tool, Arguments: tt.args}, names)
			text := res.Output + res.Error
			if res.Success != tt.ok || !strings.Contains(text, tt.want) {
				t.Fatalf("got %+v, want success=%v and %q", res, tt.ok, tt.want)
			}
			if !tt.check(mem) {
				t.Fatalf("memory after the call: facts %v snippets %v files %v", mem.KeyFacts(), mem.KeySnippets(), mem.RelatedFiles(context.Background()))
			}
		})
	}
}

func TestRelatedFilesAgain(t *testing.T) {
	t.Parallel()
	ex, _, names := setup(t)
	ctx := context.Background()
	ex.Execute(ctx, tools.Call{Name: "emit_related_files", Arguments: `{"files":["a.go"]}`}, names)
	res := ex.Execute(ctx, tools.Call{Name: "emit_related_files", Arguments: `{"files":["a.go"]}`}, names)
	if !res.Success || !strings.Contains(res.Output, "already registered") {
		t.Fatalf("second registration: %+v", res)
	}
}
