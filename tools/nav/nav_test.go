package nav

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// TestThroughExecutor runs each tool the way the agent does: registered,
// offered, validated and shaped by the executor.
func TestThroughExecutor(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.go"), []byte("package hello\n\nfunc Hello() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := reg.Register(Tools(root)...); err != nil {
		t.Fatal(err)
	}
	offered := tools.Names(reg.Select(func(s tools.Spec) bool { return s.HasGroup(tools.GroupBase) }))
	if len(offered) != 4 {
		t.Fatalf("offered %v", offered)
	}
	ex := &tools.Executor{Registry: reg}
	cases := []struct {
		name, args string
		ok         bool
		want       string
	}{
		{"ripgrep_search", `{"pattern":"func Hello"}`, true, "hello.go:3:func Hello() {}"},
		{"fuzzy_find_project_files", `{"search_term":"helo"}`, true, `[["hello.go",`},
		{"list_directory_tree", `{}`, true, "└── hello.go"},
		{"read_file_tool", `{"filepath":"hello.go","limit":1}`, true, "1\tpackage hello\n[2 more lines"},
		{"list_directory_tree", `{"max_depth":-2}`, false, "max_depth"},
		{"read_file_tool", `{"filepath":"hello.go","bogus":1}`, false, "bogus"},
		{"fuzzy_find_project_files", `{"search_term":"x","threshold":500}`, false, "Threshold must be between 0 and 100"},
	}
	for _, tc := range cases {
		t.Run(tc.name+tc.args, func(t *testing.T) {
			res := ex.Execute(context.Background(), tools.Call{Name: tc.name, Arguments: tc.args}, offered)
			if res.Success != tc.ok || !strings.Contains(res.Output+res.Error, tc.want) {
				t.Errorf("%+v, want ok=%v and %q", res, tc.ok, tc.want)
			}
		})
	}
}
