package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/reach-agent/reach/llm/llmtest"
	"github.com/reach-agent/reach/tools/aider"
	"github.com/reach-agent/reach/tools/aider/aidertest"
)

// withAider is env plus a PATH where the fake aider comes first.
func withAider(env map[string]string, fake *aidertest.Fake) map[string]string {
	out := map[string]string{"PATH": fake.Dir + string(os.PathListSeparator) + os.Getenv("PATH")}
	for k, v := range env {
		out[k] = v
	}
	return out
}

func realDir(t *testing.T, dir string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func TestUseAiderRunCallsAiderAndTheEditLands(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo, "aider.conf.yml": "dark-mode: true\n"})
	fake := aidertest.New(t, aidertest.Options{From: "Hello world", To: "Hello universe"})
	const instructions = "In Greeting, return Hello universe instead of Hello world."
	s := llmtest.NewServer(t,
		llmtest.Reply("greet.go returns the greeting."),
		llmtest.Calls(llmtest.Call("p1", "request_task_implementation", `{"task_spec":"Change the greeting in greet.go to Hello universe."}`)),
		llmtest.Reply("One task."),
		llmtest.Calls(llmtest.Call("i1", "run_programming_task", `{"instructions":"`+instructions+`","files":["greet.go","./greet.go"]}`)),
		llmtest.Reply("aider changed the greeting."),
	)
	cfgFile := filepath.Join(dir, "aider.conf.yml")
	res := run(t, dir, withAider(env(s), fake), "-m", "greet the universe", "--use-aider", "--aider-config", "aider.conf.yml")
	if res.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	want := append(aider.FixedFlags(), "--config", cfgFile, "-m", instructions, filepath.Join(realDir(t, dir), "greet.go"))
	if got := fake.Argv(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("aider argv\n got %q\nwant %q", got, want)
	}
	if got := readFile(t, filepath.Join(dir, "greet.go")); !strings.Contains(got, `return "Hello universe"`) {
		t.Fatalf("greet.go not edited:\n%s", got)
	}
	reqs := s.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests", len(reqs))
	}
	impl := reqs[3].Tools
	if !slices.Contains(impl, "run_programming_task") || slices.Contains(impl, "file_str_replace") || slices.Contains(impl, "put_complete_file_contents") {
		t.Errorf("implementation offered %q", impl)
	}
	if slices.Contains(reqs[0].Tools, "run_programming_task") {
		t.Errorf("research offered run_programming_task: %q", reqs[0].Tools)
	}
	if m := reqs[4].LastMessage(); m.ToolCallID != "i1" || !strings.Contains(m.Content, `"success":true`) || !strings.Contains(m.Content, "Applied edit to") {
		t.Errorf("aider result sent back: %+v", m)
	}
}

// TestAiderFlags checks AIDER_FLAGS end to end (environment → config →
// aider's argv) through `reach tools call`.
func TestAiderFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		flags string
		want  []string
	}{
		{"---dark-mode,----model gpt4", []string{"--dark-mode", "--model", "gpt4"}},
		{"", nil},
		{"yes-always, dark-mode", []string{"--yes-always", "--dark-mode"}},
		{"--analytics-log file.json", []string{"--analytics-log", "file.json"}},
	}
	for _, tc := range cases {
		t.Run(tc.flags, func(t *testing.T) {
			t.Parallel()
			dir := repo(t, map[string]string{"a.go": "package a\n"})
			fake := aidertest.New(t, aidertest.Options{Output: "done"})
			e := withAider(map[string]string{"AIDER_FLAGS": tc.flags}, fake)
			res := run(t, dir, e, "--use-aider", "tools", "call", "run_programming_task", `{"instructions":"add a doc comment","files":["a.go"]}`)
			if res.code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
			var out struct {
				Success bool   `json:"success"`
				Output  string `json:"output"`
			}
			if err := json.Unmarshal([]byte(res.stdout), &out); err != nil || !out.Success || out.Output != "done" {
				t.Fatalf("result %q (%v)", res.stdout, err)
			}
			want := append(aider.FixedFlags(), tc.want...)
			want = append(want, "-m", "add a doc comment", filepath.Join(realDir(t, dir), "a.go"))
			if got := fake.Argv(t); !reflect.DeepEqual(got, want) {
				t.Errorf("aider argv\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestMissingAiderIsExplained(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	empty := t.TempDir()
	res := run(t, dir, map[string]string{"PATH": empty}, "--use-aider", "tools", "call", "run_programming_task", `{"instructions":"x"}`)
	if res.code != 1 || !strings.Contains(res.stdout, "aider is not installed or not on PATH") || !strings.Contains(res.stdout, "pip install aider-install") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
}
