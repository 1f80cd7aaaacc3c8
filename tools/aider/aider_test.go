package aider

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/aider/aidertest"
	"github.com/reach-agent/reach/tools/shell"
	"github.com/reach-agent/reach/workspace"
	"github.com/reach-agent/reach/workspace/workspacetest"
)

func project(t *testing.T, files map[string]string) *workspace.Root {
	return workspacetest.New(t, files)
}

func execute(t *testing.T, root *workspace.Root, r Runner, opts Options, args string) tools.Result {
	t.Helper()
	reg := tools.NewRegistry()
	if err := reg.Register(Tool(root, r, opts)); err != nil {
		t.Fatal(err)
	}
	ex := &tools.Executor{Registry: reg}
	return ex.Execute(context.Background(), tools.Call{ID: "1", Name: "run_programming_task", Arguments: args}, []string{"run_programming_task"})
}

func fixed(extra ...string) []string { return append(FixedFlags(), extra...) }

func TestArgumentList(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"a.go": "package a\n", "pkg/b.go": "package b\n", "related.go": "package r\n"})
	dir := root.Dir()
	cases := []struct {
		name    string
		opts    Options
		args    string
		related []string
		want    []string
	}{
		{name: "fixed flags, message, files", args: `{"instructions":"rename Foo to Bar","files":["a.go","pkg/b.go"]}`,
			want: fixed("-m", "rename Foo to Bar", filepath.Join(dir, "a.go"), filepath.Join(dir, "pkg/b.go"))},
		{name: "no files", args: `{"instructions":"add a README"}`, want: fixed("-m", "add a README")},
		{name: "config then AIDER_FLAGS", opts: Options{ConfigFile: "/etc/aider.yml", Flags: []string{"--dark-mode", "--model", "gpt4"}},
			args: `{"instructions":"x","files":["a.go"]}`,
			want: fixed("--config", "/etc/aider.yml", "--dark-mode", "--model", "gpt4", "-m", "x", filepath.Join(dir, "a.go"))},
		{name: "absolute, de-duplicated, related files after", args: `{"instructions":"x","files":["a.go","./a.go","` + filepath.Join(dir, "a.go") + `","new/c.go"]}`,
			related: []string{"related.go", "a.go", "../outside.go"},
			want:    fixed("-m", "x", filepath.Join(dir, "a.go"), filepath.Join(dir, "new/c.go"), filepath.Join(dir, "related.go"))},
		{name: "quotes and newlines survive", args: `{"instructions":"say \"it's $HOME\"\nand ` + "`date`" + `"}`,
			want: fixed("-m", "say \"it's $HOME\"\nand `date`")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := aidertest.New(t, aidertest.Options{Output: "Applied edit"})
			opts := tc.opts
			opts.Binary = fake.Path
			if tc.related != nil {
				opts.RelatedFiles = func(context.Context) []string { return tc.related }
			}
			res := execute(t, root, &shell.Runner{}, opts, tc.args)
			if !res.Success || res.Output != "Applied edit" || res.ReturnCode == nil || *res.ReturnCode != 0 {
				t.Fatalf("result = %+v", res)
			}
			if got := fake.Argv(t); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("argv\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestEditLandsAndAiderIsFoundOnPath(t *testing.T) {
	// Not parallel: it changes PATH.
	root := project(t, map[string]string{"greet.go": "return \"Hello world\"\n"})
	fake := aidertest.New(t, aidertest.Options{From: "Hello world", To: "Hello universe"})
	t.Setenv("PATH", fake.Dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	res := execute(t, root, &shell.Runner{}, Options{}, `{"instructions":"greet the universe","files":["greet.go"]}`)
	if !res.Success || !strings.Contains(res.Output, "Applied edit to "+filepath.Join(root.Dir(), "greet.go")) {
		t.Fatalf("result = %+v", res)
	}
	data, err := os.ReadFile(filepath.Join(root.Dir(), "greet.go"))
	if err != nil || string(data) != "return \"Hello universe\"\n" {
		t.Fatalf("greet.go = %q, %v", data, err)
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"a.go": "package a\n"})
	long := strings.TrimSpace(strings.Repeat("word ", MaxInstructionWords+1))
	exact := strings.TrimSpace(strings.Repeat("word ", MaxInstructionWords))
	cases := []struct {
		name    string
		binary  string
		args    string
		want    string // in the error; "" means success
		started bool
	}{
		{name: "301 words", args: `{"instructions":"` + long + `"}`, want: "instructions have 301 words; the limit is 300"},
		{name: "300 words pass", args: `{"instructions":"` + exact + `"}`, started: true},
		{name: "blank", args: `{"instructions":" \n\t"}`, want: "instructions are empty"},
		{name: "outside the root", args: `{"instructions":"x","files":["../etc/passwd"]}`, want: `file "../etc/passwd"`},
		{name: "missing aider", binary: "reach-no-such-aider", args: `{"instructions":"x"}`, want: "aider is not installed or not on PATH (reach-no-such-aider): install it with `python -m pip install aider-install"},
		{name: "schema", args: `{"files":["a.go"]}`, want: "instructions"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := aidertest.New(t, aidertest.Options{})
			opts := Options{Binary: fake.Path}
			if tc.binary != "" {
				opts.Binary = tc.binary
			}
			checkpoints := 0
			opts.BeforeRun = func(context.Context) error { checkpoints++; return nil }
			res := execute(t, root, &shell.Runner{}, opts, tc.args)
			if tc.want == "" {
				if !res.Success {
					t.Fatalf("result = %+v", res)
				}
			} else if res.Success || !strings.Contains(res.Error, tc.want) {
				t.Fatalf("error %q lacks %q", res.Error, tc.want)
			}
			if started := fake.Argv(t) != nil; started != tc.started || (checkpoints == 1) != tc.started {
				t.Errorf("aider started %v, checkpoints %d; want started %v", started, checkpoints, tc.started)
			}
		})
	}
}

func TestFailureTimeoutAndHook(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"a.go": "package a\n"})
	t.Run("non-zero exit", func(t *testing.T) {
		t.Parallel()
		fake := aidertest.New(t, aidertest.Options{Output: "Model error: quota", ExitCode: 3})
		res := execute(t, root, &shell.Runner{}, Options{Binary: fake.Path}, `{"instructions":"x"}`)
		if res.Success || *res.ReturnCode != 3 || !strings.Contains(res.Error, "aider exited with code 3") || res.Output != "Model error: quota" {
			t.Fatalf("result = %+v", res)
		}
	})
	t.Run("timeout kills it", func(t *testing.T) {
		t.Parallel()
		fake := aidertest.New(t, aidertest.Options{Output: "thinking", Sleep: 30})
		start := time.Now()
		res := execute(t, root, &shell.Runner{KillGrace: 100 * time.Millisecond}, Options{Binary: fake.Path, Timeout: 1500 * time.Millisecond}, `{"instructions":"x"}`)
		if res.Success || !strings.Contains(res.Error, "aider timed out after 1.5s") || !strings.Contains(res.Output, "thinking") {
			t.Fatalf("result = %+v", res)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %s", d)
		}
	})
	t.Run("a failing checkpoint stops the run", func(t *testing.T) {
		t.Parallel()
		fake := aidertest.New(t, aidertest.Options{})
		opts := Options{Binary: fake.Path, BeforeRun: func(context.Context) error { return errors.New("checkpoint: disk full") }}
		res := execute(t, root, &shell.Runner{}, opts, `{"instructions":"x"}`)
		if res.Success || res.Error != "aider not started: checkpoint: disk full" || fake.Argv(t) != nil {
			t.Fatalf("result = %+v, argv %q", res, fake.Argv(t))
		}
	})
}

func TestTail(t *testing.T) {
	t.Parallel()
	var many []string
	for i := 1; i <= MaxResultLines+5; i++ {
		many = append(many, "line")
	}
	cases := []struct {
		name string
		out  shell.Output
		want string
	}{
		{"empty", shell.Output{}, "(aider printed nothing)"},
		{"short", shell.Output{Text: "a\nb\n"}, "a\nb"},
		{"long", shell.Output{Text: strings.Join(many, "\n")}, "[5 earlier lines of aider's output omitted]\n" + strings.Join(many[:MaxResultLines], "\n")},
		{"truncated bytes", shell.Output{Text: "end\n", Truncated: true, Bytes: 9000}, "[aider printed 9000 bytes; only the end is shown]\nend"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tail(tc.out); got != tc.want {
				t.Errorf("tail = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSpec(t *testing.T) {
	t.Parallel()
	s := Tool(project(t, nil), &shell.Runner{}, Options{}).Spec
	if s.Name != "run_programming_task" || !s.HasGroup(tools.GroupAider) || s.HasGroup(tools.GroupImplementation) || s.SideEffect != tools.Write {
		t.Errorf("spec = %+v", s)
	}
	if s.Timeout <= DefaultTimeout {
		t.Errorf("spec timeout %s does not back up the run's %s", s.Timeout, DefaultTimeout)
	}
}
