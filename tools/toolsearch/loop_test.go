package toolsearch

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/reach-agent/reach/agent"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/llm/llmtest"
	"github.com/reach-agent/reach/tools"
)

// toolBytes is the size of the tools array of a recorded request.
func toolBytes(t *testing.T, req llmtest.Request) int {
	t.Helper()
	var body struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatal(err)
	}
	return len(body.Tools)
}

// TestLoopWith300Tools runs the agent loop against the scripted model with
// 300 MCP-like tools: only the built-ins, tool_search and the top ranked
// are offered; a held-back tool is refused until tool_search finds it.
func TestLoopWith300Tools(t *testing.T) {
	t.Parallel()
	var calls []string
	reg := tools.NewRegistry()
	o := New(Options{})
	all := append(builtins(9), fakeTools(300, &calls)...)
	if err := reg.Register(append(all, o.Tool())...); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t,
		llmtest.Calls(llmtest.Call("c1", "mcp__stripe__create_refund", `{}`)),
		llmtest.Calls(llmtest.Call("c2", Name, `{"query":"create a refund in stripe"}`)),
		llmtest.Calls(llmtest.Call("c3", "mcp__stripe__create_refund", `{"refund_id":"r1"}`), llmtest.Call("c4", "mcp__github__create_issue", `{}`)),
		llmtest.Reply("done"),
	)
	loop := &agent.Loop{
		Client: llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Stream: true}),
		Exec:   &tools.Executor{Registry: reg}, Model: "test-model", RecursionLimit: 10, Offer: o,
	}
	msgs := []llm.Message{{Role: llm.System, Content: "sys"}, {Role: llm.User, Content: "Create a GitHub issue about the failing build."}}
	phaseTools := reg.Select(func(s tools.Spec) bool { return s.HasGroup(tools.GroupBase) })
	if len(phaseTools) != 309 {
		t.Fatalf("phase offers %d tools, want 309", len(phaseTools))
	}
	out, err := loop.Run(context.Background(), "research", msgs, phaseTools)
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	first := reqs[0].Tools
	if len(first) != DefaultMaxTools || !slices.Contains(first, Name) || !slices.Contains(first, "mcp__github__create_issue") {
		t.Errorf("first offer (%d tools): %v", len(first), first)
	}
	for i := range 9 {
		if !slices.Contains(first, all[i].Spec.Name) {
			t.Errorf("built-in %s not offered", all[i].Spec.Name)
		}
	}
	if !slices.Equal(reqs[1].Tools, first) {
		t.Errorf("the offer changed without a tool_search")
	}
	if third := reqs[2].Tools; !slices.Equal(third[:len(first)], first) || !slices.Contains(third[len(first):], "mcp__stripe__create_refund") {
		t.Errorf("after tool_search the refund tool must be appended: %v", third[len(first):])
	}
	if !slices.Equal(calls, []string{"mcp__stripe__create_refund", "mcp__github__create_issue"}) {
		t.Errorf("tools ran: %v", calls)
	}
	var results []string
	for _, m := range out.Messages {
		if m.Role == llm.ToolRole {
			results = append(results, m.Content)
		}
	}
	if len(results) != 4 || !strings.Contains(results[0], "not available in this phase") || !strings.Contains(results[1], "mcp__stripe__create_refund") {
		t.Errorf("tool results: %q", results)
	}

	// The same turn offering every tool, for the saving.
	full := llmtest.NewServer(t, llmtest.Reply("done"))
	plain := &agent.Loop{Client: llm.NewOpenAI(llm.OpenAIConfig{BaseURL: full.URL()}), Exec: &tools.Executor{Registry: reg}, Model: "test-model"}
	if _, err := plain.Run(context.Background(), "research", msgs, phaseTools); err != nil {
		t.Fatal(err)
	}
	allBytes, offered := toolBytes(t, full.Requests()[0]), toolBytes(t, reqs[0])
	saved := 1 - float64(offered)/float64(allBytes)
	t.Logf("tool definitions per request at 309 tools: %d bytes offered vs %d for all (%.1f%% saved, ≈%d prompt tokens at 4 bytes/token)", offered, allBytes, 100*saved, (allBytes-offered)/4)
	if saved < 0.85 {
		t.Errorf("saved %.1f%% of the tool bytes, want ≥ 85%%", 100*saved)
	}
}
