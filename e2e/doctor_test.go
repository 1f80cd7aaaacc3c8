package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/llm/llmtest"
	"github.com/reach-agent/reach/tools/aider/aidertest"
)

// doctorLines maps each check name of `reach doctor` output to its status.
func doctorLines(t *testing.T, out string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			t.Fatalf("malformed doctor line %q", line)
		}
		name := f[1]
		if name == "state" || name == "mcp" && len(f) > 2 && !strings.HasPrefix(f[2], "no") {
			name += " " + f[2]
		}
		got[name] = f[0]
	}
	return got
}

func TestDoctorHealthySetup(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	mcpFile := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(mcpFile, []byte(`{"mcpServers":{"self":{"command":"`+binary+`","args":["mcp","serve"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := llmtest.NewServer(t)
	fake := aidertest.New(t, aidertest.Options{})
	res := run(t, dir, withAider(env(s), fake), "doctor", "--use-aider", "--model", "test-model", "--mcp-config", mcpFile)
	if res.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	got := doctorLines(t, res.stdout)
	for _, name := range []string{"rg", "git", "aider", "state dir", "database", "provider", "expert", "mcp self"} {
		if got[name] != "ok" {
			t.Errorf("%s is %q, want ok:\n%s", name, got[name], res.stdout)
		}
	}
	if got["sandbox"] == "" || got["sandbox"] == "fail" {
		t.Errorf("sandbox line %q:\n%s", got["sandbox"], res.stdout)
	}
	for _, want := range []string{"aider 0.0.0-fake", "model test-model is listed", "started; "} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, res.stdout)
		}
	}
}

func TestDoctorBrokenSetup(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"a.go": "package a\n", "mcp.json": `{"mcpServers":{"gone":{"command":"reach-no-such-server"}}}`})
	rejecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided"}}`))
	}))
	t.Cleanup(rejecting.Close)
	// PATH without aider: only git's and bash's directories.
	empty := t.TempDir()
	res := run(t, dir, map[string]string{"OPENAI_API_KEY": "wrong", "OPENAI_BASE_URL": rejecting.URL + "/v1", "PATH": empty + ":/usr/bin:/bin"},
		"doctor", "--use-aider", "--mcp-config", "mcp.json")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	got := doctorLines(t, res.stdout)
	for _, name := range []string{"aider", "provider", "expert", "mcp gone"} {
		if got[name] != "fail" {
			t.Errorf("%s is %q, want fail:\n%s", name, got[name], res.stdout)
		}
	}
	for _, want := range []string{"pip install aider-install", "MCP server gone: start", "the key was rejected (HTTP 401): check OPENAI_API_KEY"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, res.stdout)
		}
	}
}
