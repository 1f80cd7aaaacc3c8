package app

import (
	"strings"
	"testing"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/expert"
	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/tools/human"
	"github.com/reach-agent/reach/tools/toolsearch"
	"github.com/reach-agent/reach/workspace/workspacetest"
)

// TestBuiltinSchemasCompile holds every built-in tool, which the toolbox
// registers without compiling its schema (RegisterTrusted), to what
// Register checks for MCP and custom tools: its schema compiles.
func TestBuiltinSchemasCompile(t *testing.T) {
	root := workspacetest.New(t, map[string]string{"a.txt": "a\n"})
	tb, err := NewToolbox(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{UseAider: true, TavilyAPIKey: config.Secret("tvly-test")}
	if err := tb.Integrate(cfg); err != nil {
		t.Fatal(err)
	}
	mem := memory.InProcess()
	ex := &expert.Expert{Root: root, Memory: mem}
	extra := append(ex.Tools(), human.Tool(nil, mem, "hil"), toolsearch.New(toolsearch.Options{}).Tool())
	if err := tb.Registry.RegisterTrusted(extra...); err != nil {
		t.Fatal(err)
	}
	specs := tb.Registry.Specs()
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	for _, want := range []string{"ripgrep_search", "read_file_tool", "run_shell_command", "run_programming_task", "web_search_tavily", "ask_expert", "ask_human", "tool_search"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("%s is not among the built-in tools checked: %v", want, names)
		}
	}
	if err := tb.Registry.CheckSchemas(); err != nil {
		t.Fatalf("built-in schemas that do not compile: %v", err)
	}
}
