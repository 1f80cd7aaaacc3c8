package phases

import (
	"strings"
	"testing"
)

func TestWebAndAiderGuidance(t *testing.T) {
	t.Parallel()
	const section = "# Web or expert"
	cases := []struct {
		name      string
		phase     string
		tools     []string
		want, not []string
	}{
		{name: "research with web and expert", phase: Research, tools: []string{"web_search_tavily", "ask_expert"},
			want: []string{section, "Search the web when", "Ask the expert instead"}},
		{name: "research with web only", phase: Research, tools: []string{"web_search_tavily"},
			want: []string{section, "exact error text"}, not: []string{"Ask the expert instead"}},
		{name: "research without web", phase: Research, tools: []string{"ask_expert"}, not: []string{section, "web_search_tavily"}},
		{name: "planning keeps the one-line rule", phase: Planning, tools: []string{"web_search_tavily", "ask_expert"},
			want: []string{"Use web_search_tavily"}, not: []string{section}},
		{name: "aider", phase: Implementation, tools: []string{"run_programming_task"},
			want: []string{"Make changes with run_programming_task", "at most 300 words"}},
		{name: "native edits", phase: Implementation, tools: []string{"file_str_replace"}, not: []string{"run_programming_task"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := SystemPrompt(tc.phase, Context{Task: "t", ToolNames: tc.tools})
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("prompt lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("prompt has %q", n)
				}
			}
		})
	}
}
