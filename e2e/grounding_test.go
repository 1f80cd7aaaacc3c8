package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reach-agent/reach/llm/llmtest"
)

// countLines is a custom tool: arguments as JSON on stdin, one JSON answer.
const countLines = `{"tools":[{"name":"count_lines","summary":"Count the lines of a file of the project.",
 "side_effect":"read","idempotent":true,
 "parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]},
 "command":"python3 -c 'import json,sys; a=json.load(sys.stdin); n=len(open(a[\"path\"]).read().splitlines()); print(json.dumps({\"success\":True,\"can_retry\":False,\"return_code\":0,\"output\":\"%d lines\" % n}))'"}]}`

func TestRunCallsAnMCPToolAndACustomTool(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	// The MCP server is a real one: another reach, serving its tools on stdio.
	mcpConfig := `{"mcpServers":{"self":{"command":"` + binary + `","args":["mcp","serve"]}}}`
	for name, body := range map[string]string{"mcp.json": mcpConfig, "tools.json": countLines} {
		if err := os.WriteFile(filepath.Join(dir, ".reach-"+name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("r1", "mcp__self__read_file_tool", `{"filepath":"greet.go"}`),
			llmtest.Call("r2", "count_lines", `{"path":"greet.go"}`)),
		llmtest.Reply("greet.go has the greeting."),
	)
	res := run(t, dir, env(s), "--research-only", "-m", "where is the greeting?",
		"--mcp-config", ".reach-mcp.json", "--custom-tools", ".reach-tools.json")
	if res.code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", res.code, res.stderr)
	}
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	offered := strings.Join(reqs[0].Tools, ",")
	for _, want := range []string{"mcp__self__read_file_tool", "mcp__self__ripgrep_search", "count_lines"} {
		if !strings.Contains(offered, want) {
			t.Errorf("first request offers %s, want %s among them", offered, want)
		}
	}
	var mcpOut, customOut string
	for _, m := range reqs[1].Messages {
		switch m.ToolCallID {
		case "r1":
			mcpOut = m.Content
		case "r2":
			customOut = m.Content
		}
	}
	if !strings.Contains(mcpOut, `Hello world`) || !strings.Contains(mcpOut, `"success":true`) {
		t.Errorf("MCP tool result = %q, want greet.go's lines", mcpOut)
	}
	if !strings.Contains(customOut, "6 lines") {
		t.Errorf("custom tool result = %q, want 6 lines", customOut)
	}
}

func TestMCPServeWithTheSDKClient(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	cmd := exec.Command(binary, "mcp", "serve")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to reach mcp serve: %v", err)
	}
	defer cs.Close()
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	got := strings.Join(names, ",")
	for _, want := range []string{"ripgrep_search", "fuzzy_find_project_files", "list_directory_tree", "read_file_tool", "file_str_replace", "run_shell_command"} {
		if !strings.Contains(got, want) {
			t.Errorf("served tools %s lack %s", got, want)
		}
	}
	if strings.Contains(got, "emit_research_notes") {
		t.Errorf("served tools %s include a run-only tool", got)
	}
	tests := []struct {
		name, tool, args string
		isError          bool
		want             string
	}{
		{"search", "ripgrep_search", `{"pattern":"Hello"}`, false, "greet.go:5"},
		{"edit", "file_str_replace", `{"filepath":"greet.go","old_str":"Hello world","new_str":"Hello MCP"}`, false, "Hello MCP"},
		{"outside the root", "read_file_tool", `{"filepath":"../../etc/passwd"}`, true, ""},
		{"shell needs approval", "run_shell_command", `{"command":"touch made-by-mcp"}`, true, "approval"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tt.tool, Arguments: json.RawMessage(tt.args)})
			if err != nil {
				t.Fatal(err)
			}
			text := ""
			for _, c := range res.Content {
				if tc, ok := c.(*sdk.TextContent); ok {
					text += tc.Text
				}
			}
			if res.IsError != tt.isError || !strings.Contains(text, tt.want) {
				t.Errorf("%s = isError %v %q, want isError %v containing %q", tt.tool, res.IsError, text, tt.isError, tt.want)
			}
		})
	}
	if got := readFile(t, filepath.Join(dir, "greet.go")); !strings.Contains(got, "Hello MCP") {
		t.Errorf("the edit did not land:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "made-by-mcp")); err == nil {
		t.Error("a command that needs approval ran without it")
	}
	// The served calls are audited and counted like a run's.
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	res := run(t, dir, nil, "audit")
	for _, want := range []string{"4 calls", "mcp-", "ripgrep_search  allowed", "file_str_replace  allowed", "run_shell_command  denied"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("reach audit after mcp serve lacks %q:\n%s\n%s", want, res.stdout, res.stderr)
		}
	}
	if res := run(t, dir, nil, "tools", "stats"); !strings.Contains(res.stdout, "builtin:file_str_replace") {
		t.Errorf("reach tools stats after mcp serve lacks the served calls:\n%s\n%s", res.stdout, res.stderr)
	}
}
