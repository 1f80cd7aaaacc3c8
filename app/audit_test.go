package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/pflag"

	"github.com/reach-agent/reach/audit"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/iostreams"
	"github.com/reach-agent/reach/llm/llmtest"
)

// answers is a Prompter that answers approval questions in order.
type answers struct {
	mu   sync.Mutex
	next []string
}

func (a *answers) Ask(context.Context, string, []string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.next) == 0 {
		return "n", nil
	}
	ans := a.next[0]
	a.next = a.next[1:]
	return ans, nil
}

func loadConfig(t *testing.T, dir string, env map[string]string, args ...string) *config.Config {
	t.Helper()
	fs := pflag.NewFlagSet("reach", pflag.ContinueOnError)
	flags := config.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(fs, flags, config.MapEnv(env), config.Paths{ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func auditEntries(t *testing.T, cfg *config.Config) []audit.Entry {
	t.Helper()
	path, err := audit.Find(audit.Dir(cfg.ProjectStateDir), "")
	if err != nil {
		t.Fatal(err)
	}
	entries, damaged, err := audit.Read(path)
	if err != nil || damaged > 0 {
		t.Fatalf("read %s: %v (%d damaged)", path, err, damaged)
	}
	return entries
}

func TestRunAuditsEveryCallAndRecordsQuality(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t,
		llmtest.Calls(
			llmtest.Call("c1", "read_file_tool", `{"filepath":"a.txt"}`),
			llmtest.Call("c2", "run_shell_command", `{"command":"API_TOKEN=s3cr3tvalue touch c.txt"}`),
			llmtest.Call("c3", "run_shell_command", `{"command":"touch b.txt"}`),
			llmtest.Call("c4", "no_such_tool", `{}`),
			llmtest.Call("c5", "run_shell_command", `{"command":"sudo ls"}`),
		),
		llmtest.Reply("done"),
	)
	env := map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": srv.URL()}
	cfg := loadConfig(t, dir, env, "--research-only", "-m", "look at a.txt", "--no-tui")
	io, _, _, _ := iostreams.Test()
	code := RunTask(context.Background(), Task{IO: io, Cfg: cfg, Dir: dir, Sink: &events.Recorder{}, Prompter: &answers{next: []string{"y", "n"}}})
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	entries := auditEntries(t, cfg)
	want := []struct{ tool, decision, rule string }{
		{"read_file_tool", audit.Allowed, "side-effect:read"},
		{"run_shell_command", audit.Asked, "human:yes"},
		{"run_shell_command", audit.Asked, "human:no"},
		{"no_such_tool", audit.Invalid, "unknown-tool"},
		{"run_shell_command", audit.Denied, "policy:"},
	}
	if len(entries) != len(want) {
		t.Fatalf("%d audit entries, want %d: %+v", len(entries), len(want), entries)
	}
	for i, w := range want {
		e := entries[i]
		if e.Tool != w.tool || e.Decision != w.decision || !strings.HasPrefix(e.Rule, w.rule) || e.Phase != "research" || e.Session == "" {
			t.Errorf("entry %d = %s %s %s phase %q session %q, want %+v", i, e.Tool, e.Decision, e.Rule, e.Phase, e.Session, w)
		}
	}
	if strings.Contains(string(entries[1].Arguments), "s3cr3tvalue") || !entries[1].Ran || entries[1].ReturnCode == nil {
		t.Errorf("shell entry: args %s ran %v rc %v", entries[1].Arguments, entries[1].Ran, entries[1].ReturnCode)
	}
	if entries[2].Ran || entries[0].ResultBytes == 0 || !strings.Contains(entries[0].Summary, "hello") {
		t.Errorf("entries: %+v", entries)
	}

	var out bytes.Buffer
	io.Out = &out
	if err := ToolStats(io, cfg); err != nil {
		t.Fatal(err)
	}
	stats := out.String()
	for _, w := range []string{"builtin:read_file_tool", "builtin:run_shell_command", "PENALTY", "100%"} {
		if !strings.Contains(stats, w) {
			t.Errorf("stats lack %q:\n%s", w, stats)
		}
	}
	if strings.Contains(stats, "no_such_tool") {
		t.Errorf("a refused call must not count as a tool call:\n%s", stats)
	}
	out.Reset()
	if err := ShowAudit(io, cfg, entries[0].Session); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "human:no") || !strings.Contains(out.String(), "5 calls") {
		t.Errorf("reach audit:\n%s", out.String())
	}
}

func TestRunWithoutAHumanDeniesAndAudits(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("c1", "run_shell_command", `{"command":"touch b.txt"}`)),
		llmtest.Reply("done"),
	)
	env := map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": srv.URL()}
	cfg := loadConfig(t, dir, env, "--research-only", "-m", "make b.txt", "--no-tui")
	io, _, _, _ := iostreams.Test()
	if code := RunTask(context.Background(), Task{IO: io, Cfg: cfg, Dir: dir, Sink: &events.Recorder{}}); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	entries := auditEntries(t, cfg)
	if len(entries) != 1 || entries[0].Decision != audit.Denied || entries[0].Rule != "no-human" || entries[0].Ran {
		t.Errorf("entries = %+v", entries)
	}
}

// TestRunRetrievesAmongManyTools checks the wiring of retrieval in a run:
// with 60 custom tools the model is offered the built-ins, tool_search and
// the best ranked; tool_search brings one more in, and the audit log
// carries the candidates with their scores.
func TestRunRetrievesAmongManyTools(t *testing.T) {
	dir := t.TempDir()
	var manifest strings.Builder
	manifest.WriteString(`{"tools":[`)
	topics := []string{"invoice", "weather", "ticket", "calendar", "deploy", "backup"}
	for i := range 60 {
		if i > 0 {
			manifest.WriteString(",")
		}
		topic := topics[i%len(topics)]
		fmt.Fprintf(&manifest, `{"name":"%s_tool_%d","summary":"Handles %s data (%d).","side_effect":"read","parameters":{"type":"object","properties":{}},"command":"echo '{\"success\":true,\"output\":\"ok %d\"}'"}`, topic, i, topic, i, i)
	}
	manifest.WriteString(`]}`)
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), []byte(manifest.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("c1", "tool_search", `{"query":"backup"}`)),
		llmtest.Calls(llmtest.Call("c2", "backup_tool_11", `{}`)),
		llmtest.Reply("done"),
	)
	env := map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": srv.URL()}
	cfg := loadConfig(t, dir, env, "--research-only", "-m", "summarise the weather records", "--no-tui", "--custom-tools", "tools.json")
	io, _, _, _ := iostreams.Test()
	if code := RunTask(context.Background(), Task{IO: io, Cfg: cfg, Dir: dir, Sink: &events.Recorder{}}); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := strings.Join(reqs[0].Tools, ",")
	if len(reqs[0].Tools) > 30 || !strings.Contains(first, "tool_search") || !strings.Contains(first, "weather_tool_1") || strings.Contains(first, "backup_tool_11") {
		t.Errorf("first offer (%d): %s", len(reqs[0].Tools), first)
	}
	if !slices.Contains(reqs[1].Tools, "backup_tool_11") {
		t.Errorf("tool_search did not add backup_tool_11: %v", reqs[1].Tools)
	}
	entries := auditEntries(t, cfg)
	if len(entries) != 2 || len(entries[0].Candidates) == 0 || entries[0].Candidates[0].Score <= 0 || !entries[1].Success {
		t.Fatalf("entries = %+v", entries)
	}
	if !strings.HasPrefix(entries[0].Candidates[0].Name, "weather_tool_") {
		t.Errorf("best candidate %s, want a weather tool", entries[0].Candidates[0].Name)
	}
}
