package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/llm/llmtest"
	"github.com/reach-agent/reach/retrieval/embedtest"
)

func TestAuditAndStatsCommands(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("r1", "read_file_tool", `{"filepath":"greet.go"}`),
			llmtest.Call("r2", "run_shell_command", `{"command":"rm -rf /"}`)),
		llmtest.Reply("read it"),
	)
	if res := run(t, dir, env(s), "--research-only", "-m", "read greet.go"); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	res := run(t, dir, nil, "audit")
	if res.code != 0 {
		t.Fatalf("reach audit: exit %d\n%s", res.code, res.stderr)
	}
	for _, want := range []string{"2 calls", "read_file_tool  allowed by side-effect:read  ok", "run_shell_command  denied by policy:", `args {"filepath":"greet.go"}`} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("reach audit lacks %q:\n%s", want, res.stdout)
		}
	}
	if res := run(t, dir, nil, "audit", "999"); res.code == 0 || !strings.Contains(res.stderr, "no audit log for session") {
		t.Errorf("unknown session: exit %d %s", res.code, res.stderr)
	}
	res = run(t, dir, nil, "tools", "stats")
	if res.code != 0 || !strings.Contains(res.stdout, "builtin:read_file_tool") || !strings.Contains(res.stdout, "P95 MS") {
		t.Errorf("reach tools stats: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}

func TestToolsEvalWithEmbeddingsUsesTheCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"tools.json": `{"WeatherNow":"Current weather and forecast for any city.","StockQuote":"Latest stock prices and market data.","RecipeBox":"Find recipes and cooking ideas."}`,
		"q.csv":      "query,tool\nwill it rain in Paris tomorrow,WeatherNow\nhow is Apple stock doing,StockQuote\nwhat can I cook with eggs,RecipeBox\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	emb := embedtest.NewServer(t)
	env := map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": emb.URL()}
	for i := range 2 {
		res := run(t, dir, env, "tools", "eval", "q.csv", "--tools", "tools.json", "--embedding-model", "fake-embed")
		if res.code != 0 || !strings.Contains(res.stdout, "queries=3") || !strings.Contains(res.stdout, "R@5=1.000") {
			t.Fatalf("run %d: exit %d\n%s\n%s", i+1, res.code, res.stdout, res.stderr)
		}
		if emb.Texts() != 6 {
			t.Errorf("after run %d the endpoint embedded %d texts, want 6 (3 tools + 3 queries, once)", i+1, emb.Texts())
		}
	}
}
