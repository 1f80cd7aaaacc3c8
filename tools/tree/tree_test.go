package tree

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
	"github.com/reach-agent/reach/workspace/workspacetest"
)

func fixture(t *testing.T, files map[string]string) *workspace.Root {
	return workspacetest.New(t, files)
}

func TestListDirectoryTree(t *testing.T) {
	t.Parallel()
	root := fixture(t, map[string]string{
		".gitignore":        "dist/\n*.log\n",
		".aiderignore":      "secret/\n",
		"README.md":         "hello",
		"b.go":              "package b\n",
		"A.txt":             "",
		"cmd/main.go":       "",
		"cmd/sub/deep.go":   "",
		"pkg/x/.gitignore":  "gen.go\n",
		"pkg/x/gen.go":      "",
		"pkg/x/keep.go":     "",
		"dist/out.js":       "",
		"debug.log":         "",
		"secret/key":        "",
		".env":              "",
		"node_modules/m.js": "",
		"mod/__pycache__/c": "",
		"mod/a.pyc":         "",
		"mod/a.py":          "",
	})
	mtime := time.Date(2024, 5, 6, 7, 8, 0, 0, time.Local)
	if err := os.Chtimes(filepath.Join(root.Dir(), "README.md"), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, args string
		ok         bool
		want       string // exact output, or substrings separated by "|" when partial
		partial    bool
	}{
		{"depth 1 by default, dirs first, ignores honoured", `{}`, true,
			"./\n├── cmd/ (2 entries)\n├── mod/ (1 entry)\n├── pkg/ (1 entry)\n├── A.txt\n├── b.go\n└── README.md\n", false},
		{"deeper, nested .gitignore", `{"path":"pkg","max_depth":3}`, true,
			"pkg/\n└── x/\n    └── keep.go\n", false},
		{"max depth 2", `{"path":"cmd","max_depth":2}`, true,
			"cmd/\n├── sub/\n│   └── deep.go\n└── main.go\n", false},
		{"sizes and times", `{"show_size":true,"show_modified":true,"path":"README.md"}`, true,
			"README.md (5 B, 2024-05-06 07:08)\n", false},
		{"exclude patterns", `{"exclude_patterns":["*.go","mod/"]}`, true,
			"./\n├── cmd/ (1 entry)\n├── pkg/ (1 entry)\n├── A.txt\n└── README.md\n", false},
		{"missing path, RA.Aid message", `{"path":"nope"}`, false, "Error: Path does not exist: nope", false},
		{"negative depth", `{"max_depth":-1}`, false, "max_depth must be between 1 and 64", true},
		{"outside the root", `{"path":".."}`, false, "outside the project root", true},
	}
	tool := Tool(root, Options{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := tool.Run(context.Background(), json.RawMessage(tc.args))
			text := res.Output + res.Error
			if res.Success != tc.ok {
				t.Fatalf("success=%v want %v: %s", res.Success, tc.ok, text)
			}
			if tc.partial {
				for _, w := range strings.Split(tc.want, "|") {
					if !strings.Contains(text, w) {
						t.Errorf("missing %q in %q", w, text)
					}
				}
				return
			}
			if text != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", text, tc.want)
			}
		})
	}
}

func TestEntryLimitAndLoops(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("d/f%02d", i)] = ""
	}
	root := fixture(t, files)
	if err := os.Symlink("..", filepath.Join(root.Dir(), "d", "up")); err != nil {
		t.Skip(err)
	}
	tool := Tool(root, Options{MaxEntries: 10})
	res := tool.Run(context.Background(), json.RawMessage(`{"max_depth":64,"follow_links":true}`))
	if !res.Success {
		t.Fatal(res.Error)
	}
	if n := strings.Count(res.Output, "\n"); n != 12 { // header + 10 entries + note
		t.Errorf("%d lines:\n%s", n, res.Output)
	}
	if !strings.Contains(res.Output, "[22 more entries not shown (limit 10)") {
		t.Errorf("note missing:\n%s", res.Output)
	}
	res = Tool(root, Options{}).Run(context.Background(), json.RawMessage(`{"path":"d"}`))
	if !strings.Contains(res.Output, "up -> ..") {
		t.Errorf("unfollowed link not shown:\n%s", res.Output)
	}
}

func TestSpec(t *testing.T) {
	t.Parallel()
	tool := Tool(nil, Options{})
	if tool.Spec.SideEffect != tools.Read || !tool.Spec.Idempotent || !tool.Spec.HasGroup(tools.GroupBase) {
		t.Errorf("spec: %+v", tool.Spec)
	}
	if err := tools.NewRegistry().Register(tool); err != nil {
		t.Fatal(err)
	}
}

func TestNonUTF8NameIsQuoted(t *testing.T) {
	t.Parallel()
	root := fixture(t, map[string]string{"bad\xffname.txt": ""})
	res := Tool(root, Options{}).Run(context.Background(), json.RawMessage(`{}`))
	if !res.Success || !strings.Contains(res.Output, `"bad\xffname.txt"`) {
		t.Errorf("%+v", res)
	}
}

func BenchmarkTreeGOROOT(b *testing.B) {
	root, err := workspace.New(filepath.Join(runtime.GOROOT(), "src"))
	if err != nil {
		b.Skip(err)
	}
	tool := Tool(root, Options{})
	for b.Loop() {
		if res := tool.Run(context.Background(), json.RawMessage(`{"max_depth":64}`)); !res.Success {
			b.Fatal(res.Error)
		}
	}
}

// TestCutCountMatchesFullListing checks that what is counted past the
// limit is exactly what a listing without the limit would show.
func TestCutCountMatchesFullListing(t *testing.T) {
	t.Parallel()
	files := map[string]string{".gitignore": "*.tmp\n", "a/.gitignore": "skip/\n"}
	for _, p := range []string{"a/1.go", "a/2.go", "a/x.tmp", "a/skip/s.go", "a/b/3.go", "a/b/c/4.go", "d/5.go", "d/e/6.go", "7.go"} {
		files[p] = ""
	}
	root := fixture(t, files)
	args := json.RawMessage(`{"max_depth":3}`)
	full := Tool(root, Options{}).Run(context.Background(), args)
	total := strings.Count(full.Output, "\n") - 1 // minus the header
	for _, limit := range []int{1, 3, 5} {
		res := Tool(root, Options{MaxEntries: limit}).Run(context.Background(), args)
		want := fmt.Sprintf("[%d more entries not shown (limit %d)", total-limit, limit)
		if !strings.Contains(res.Output, want) {
			t.Errorf("limit %d: want %q in\n%s\n(full listing:\n%s)", limit, want, res.Output, full.Output)
		}
	}
}
