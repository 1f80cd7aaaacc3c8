package search

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
	"github.com/reach-agent/reach/workspace/workspacetest"
)

func fixture(t *testing.T, files map[string]string) *workspace.Root {
	t.Helper()
	root := workspacetest.New(t, files)
	// rg honours .gitignore only inside a git repository.
	if err := os.MkdirAll(filepath.Join(root.Dir(), ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// backends returns the backends to run every case on: native always, rg
// when installed. Both must give the same result.
func backends(t *testing.T) map[string]Options {
	b := map[string]Options{"native": {Native: true}}
	if p, err := exec.LookPath("rg"); err == nil {
		b["rg"] = Options{RgPath: p}
	} else {
		t.Log("rg not installed: only the native backend is tested")
	}
	return b
}

func call(t *testing.T, root *workspace.Root, opts Options, argsJSON string) tools.Result {
	t.Helper()
	return Tool(root, opts).Run(context.Background(), json.RawMessage(argsJSON))
}

var files = map[string]string{
	".gitignore":             "ignored/\n*.gen.go\n",
	"main.go":                "package main\n\nfunc main() {\n\tHandleRequest()\n}\n",
	"server/handler.go":      "package server\n\n// HandleRequest serves.\nfunc HandleRequest() {}\n\nfunc other() { handlerequest() }\n",
	"server/handler_test.go": "package server\n\nfunc TestHandleRequest(t *T) {}\n",
	"server/z.gen.go":        "func HandleRequest() // generated\n",
	"ignored/x.go":           "HandleRequest\n",
	"node_modules/m/i.js":    "HandleRequest\n",
	"vendor/v/v.go":          "HandleRequest\n",
	"build/out.go":           "HandleRequest\n",
	".hidden/h.go":           "HandleRequest\n",
	"scripts/run.py":         "def handle_request():\n    return 'a.b(c'\n",
	"notes.md":               "a.b(c is literal\naxb(c is not\n",
	"ctx.txt":                "l1\nl2\nneedle one\nl4\nl5\nl6\nl7\nneedle two\nl9\n",
	"bin.dat":                "HandleRequest\x00\x01\x02",
	"latin1.txt":             "caf\xe9 HandleRequest\n",
	"long.txt":               strings.Repeat("x", 600) + "HandleRequest\n",
	"crlf.txt":               "HandleRequest\r\nnext\r\n",
}

func TestSearchContract(t *testing.T) {
	t.Parallel()
	root := fixture(t, files)
	cases := []struct {
		name    string
		args    string
		ok      bool
		want    []string // substrings of output (or error)
		notWant []string
	}{
		{"literal grouped per file with count", `{"pattern":"HandleRequest"}`, true,
			[]string{"7 matches in 6 files\n", "crlf.txt:1:HandleRequest\n", "main.go:4:\tHandleRequest()\n",
				"server/handler.go:3:// HandleRequest serves.\nserver/handler.go:4:func HandleRequest() {}\n",
				"server/handler_test.go:3:func TestHandleRequest", "latin1.txt:1:caf"},
			[]string{"ignored/", "node_modules", "vendor/", "build/", ".hidden", "bin.dat", "z.gen.go", "\r"}},
		{"no match is a successful empty result", `{"pattern":"NoSuchThing"}`, true, []string{"No matches found."}, nil},
		{"bad regex quotes the parse error", `{"pattern":"Handle(Request"}`, false,
			[]string{"regex parse error", "fixed_string=true"}, nil},
		{"fixed string", `{"pattern":"a.b(c","fixed_string":true}`, true,
			[]string{"2 matches in 2 files", "notes.md:1:a.b(c is literal", "scripts/run.py:2:"}, []string{"axb"}},
		{"regex dot matches any", `{"pattern":"a.b\\(c"}`, true, []string{"notes.md:2:axb(c is not"}, nil},
		{"case insensitive", `{"pattern":"handlerequest","case_sensitive":false,"include_paths":["server"]}`, true,
			[]string{"4 matches in 2 files", "server/handler.go:6:func other() { handlerequest() }"}, nil},
		{"case sensitive by default", `{"pattern":"handlerequest"}`, true, []string{"1 match in 1 file\n"}, nil},
		{"context lines and separators", `{"pattern":"needle","before_context_lines":1,"after_context_lines":1}`, true,
			[]string{"ctx.txt-2-l2\nctx.txt:3:needle one\nctx.txt-4-l4\n--\nctx.txt-7-l7\nctx.txt:8:needle two\nctx.txt-9-l9\n"}, nil},
		{"hidden on request", `{"pattern":"HandleRequest","include_hidden":true}`, true, []string{".hidden/h.go:1:"}, nil},
		{"extra exclude dirs", `{"pattern":"HandleRequest","exclude_dirs":["server"]}`, true, nil, []string{"server/"}},
		{"exclude dir that is a path", `{"pattern":"x","exclude_dirs":["a/b"]}`, false, []string{"directory name"}, nil},
		{"file type alias", `{"pattern":"handle","file_type":"py"}`, true, []string{"1 match in 1 file", "scripts/run.py:1:"}, nil},
		{"file type canonical", `{"pattern":"HandleRequest","file_type":"go"}`, true, []string{"4 matches in 3 files"}, []string{".txt"}},
		{"unknown file type", `{"pattern":"x","file_type":"cobol"}`, false, []string{`unknown file_type "cobol"`, "python"}, nil},
		{"include paths", `{"pattern":"HandleRequest","include_paths":["main.go","server/handler_test.go"]}`, true,
			[]string{"2 matches in 2 files"}, nil},
		{"include path outside root", `{"pattern":"x","include_paths":["../"]}`, false, []string{"outside the project root"}, nil},
		{"include path missing", `{"pattern":"x","include_paths":["nope"]}`, false, []string{"nope does not exist"}, nil},
		{"long lines are clipped", `{"pattern":"HandleRequest","include_paths":["long.txt"]}`, true,
			[]string{"… [113 more bytes]"}, nil},
		{"negative context", `{"pattern":"x","before_context_lines":-1}`, false, []string{"between 0 and 100"}, nil},
		{"multi-line pattern", `{"pattern":"a\nb"}`, false, []string{"line break"}, nil},
	}
	for bname, opts := range backends(t) {
		for _, tc := range cases {
			t.Run(bname+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				res := call(t, root, opts, tc.args)
				text := res.Output + res.Error
				if res.Success != tc.ok {
					t.Fatalf("success=%v, want %v: %s", res.Success, tc.ok, text)
				}
				for _, w := range tc.want {
					if !strings.Contains(text, w) {
						t.Errorf("missing %q in:\n%s", w, text)
					}
				}
				for _, w := range tc.notWant {
					if strings.Contains(text, w) {
						t.Errorf("unexpected %q in:\n%s", w, text)
					}
				}
			})
		}
	}
}

func TestBackendsAgree(t *testing.T) {
	t.Parallel()
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg not installed")
	}
	root := fixture(t, files)
	for _, args := range []string{
		`{"pattern":"HandleRequest"}`,
		`{"pattern":"(?i)handle_?request","include_hidden":true}`,
		`{"pattern":"^l[0-9]$","after_context_lines":2}`,
		`{"pattern":"func \\w+\\(","before_context_lines":2}`,
		`{"pattern":"e","case_sensitive":false}`,
	} {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			a := call(t, root, Options{RgPath: rg}, args)
			b := call(t, root, Options{Native: true}, args)
			if a != b {
				t.Errorf("rg:\n%+v\nnative:\n%+v", a, b)
			}
		})
	}
}

func TestSymlinkLoopFinishes(t *testing.T) {
	t.Parallel()
	root := fixture(t, map[string]string{"a/f.txt": "needle\n"})
	if err := os.Symlink("..", filepath.Join(root.Dir(), "a", "up")); err != nil {
		t.Skip(err)
	}
	for bname, opts := range backends(t) {
		t.Run(bname, func(t *testing.T) {
			res := call(t, root, opts, `{"pattern":"needle","follow_links":true}`)
			if !res.Success || !strings.Contains(res.Output, "a/f.txt:1:needle") {
				t.Errorf("%+v", res)
			}
		})
	}
}

func TestBackend(t *testing.T) {
	t.Parallel()
	if got := Backend(Options{Native: true}); !strings.Contains(got, "native") {
		t.Errorf("forced native: %q", got)
	}
	if got := Backend(Options{RgPath: "/opt/rg"}); got != "rg (/opt/rg)" {
		t.Errorf("explicit rg: %q", got)
	}
}

func TestSpec(t *testing.T) {
	t.Parallel()
	tool := Tool(nil, Options{})
	if tool.Spec.Name != Name || tool.Spec.SideEffect != tools.Read || !tool.Spec.Idempotent || !tool.Spec.HasGroup(tools.GroupBase) {
		t.Errorf("spec: %+v", tool.Spec)
	}
	reg := tools.NewRegistry()
	if err := reg.Register(tool); err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(tool.Spec.Parameters, &s); err != nil || s["additionalProperties"] != false {
		t.Errorf("schema: %v %v", err, s["additionalProperties"])
	}
}

func TestNonUTF8FileName(t *testing.T) {
	t.Parallel()
	root := fixture(t, map[string]string{"bad\xffname.txt": "needle\n"})
	for bname, opts := range backends(t) {
		t.Run(bname, func(t *testing.T) {
			res := call(t, root, opts, `{"pattern":"needle"}`)
			if !res.Success || !strings.Contains(res.Output, "name.txt:1:needle") {
				t.Errorf("%+v", res)
			}
			if _, err := json.Marshal(res); err != nil {
				t.Errorf("result does not marshal: %v", err)
			}
		})
	}
}
