package phases

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/tools"
)

func TestToolset(t *testing.T) {
	t.Parallel()
	reg := tools.NewRegistry()
	run := func(context.Context, json.RawMessage) tools.Result { return tools.OK("") }
	for name, groups := range map[string][]string{
		"read":     {tools.GroupBase},
		"notes":    {tools.GroupResearch},
		"plan":     {tools.GroupPlanning},
		"edit":     {tools.GroupImplementation},
		"aider":    {tools.GroupAider},
		"untagged": nil,
	} {
		if err := reg.Register(tools.Tool{Spec: tools.Spec{Name: name, Groups: groups}, Run: run}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		phase string
		opts  Options
		want  string
	}{
		{Research, Options{}, "notes,read"},
		{Planning, Options{}, "plan,read"},
		{Implementation, Options{}, "edit,read"},
		{Implementation, Options{UseAider: true}, "aider,read"},
		{Chat, Options{}, "edit,notes,read"},
		{"nonsense", Options{}, "read"},
	}
	for _, tc := range tests {
		t.Run(tc.phase, func(t *testing.T) {
			t.Parallel()
			if got := strings.Join(tools.Names(Toolset(reg, tc.phase, tc.opts)), ","); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestLoadProject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		files    map[string]string
		wantFile string
		wantHas  string
		maxLen   int
	}{
		{"AGENTS.md wins", map[string]string{"AGENTS.md": "use tabs", "CLAUDE.md": "no"}, "AGENTS.md", "use tabs", 0},
		{"CLAUDE.md stands in", map[string]string{"CLAUDE.md": "claude rules"}, "CLAUDE.md", "claude rules", 0},
		{"CONVENTIONS.md last", map[string]string{"CONVENTIONS.md": "conv"}, "CONVENTIONS.md", "conv", 0},
		{"capped at 32 KiB", map[string]string{"AGENTS.md": strings.Repeat("x", 100<<10)}, "AGENTS.md", "truncated at 32 KiB", MaxInstructionsBytes + 100},
		{"none", map[string]string{"main.go": "package main"}, "", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for n, c := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p, err := LoadProject(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if p.InstructionsFile != tc.wantFile || !strings.Contains(p.Instructions, tc.wantHas) {
				t.Fatalf("file %q instructions %.80q", p.InstructionsFile, p.Instructions)
			}
			if tc.maxLen > 0 && len(p.Instructions) > tc.maxLen {
				t.Fatalf("instructions %d bytes, cap %d", len(p.Instructions), tc.maxLen)
			}
			for n := range tc.files {
				if !strings.Contains(p.Listing, n) {
					t.Fatalf("listing lacks %s:\n%s", n, p.Listing)
				}
			}
		})
	}
}

func TestListingIsCapped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := 0; i < 250; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := LoadProject(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(p.Listing, "\n"); n != maxListing+1 || !strings.Contains(p.Listing, "and 50 more files") {
		t.Fatalf("%d lines:\n%s", n, p.Listing[len(p.Listing)-100:])
	}
}

func TestSystemPrompt(t *testing.T) {
	t.Parallel()
	c := Context{
		Task:            "rename Foo",
		Project:         Project{Root: "/repo", Instructions: "run make lint", InstructionsFile: "AGENTS.md", Listing: "foo.go\n"},
		ResearchSummary: "Foo is in foo.go",
		ResearchNotes:   []string{"Foo has 3 callers"},
		Plan:            []string{"rename in foo.go", "update callers"},
		TaskIndex:       2,
		TaskSpec:        "update callers",
		TestCmd:         "go test ./...",
		ToolNames:       []string{"ask_human"},
	}
	tests := []struct {
		phase   string
		want    []string
		notWant []string
	}{
		{Research, []string{"RESEARCH phase", "run make lint", "foo.go", "rename Foo", "ask_human"}, []string{"Research notes", "The plan"}},
		{Planning, []string{"PLANNING phase", "Foo has 3 callers", "Foo is in foo.go"}, []string{"The plan"}},
		{Implementation, []string{"IMPLEMENTATION phase", "1. rename in foo.go", "task 2 of 2", "go test ./..."}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.phase, func(t *testing.T) {
			t.Parallel()
			got := SystemPrompt(tc.phase, c)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("prompt lacks %q", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w) {
					t.Errorf("prompt has %q", w)
				}
			}
		})
	}
}
