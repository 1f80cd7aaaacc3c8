package toolsearch

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reach-agent/reach/tools"
)

// Name is the tool's wire name (SPEC §3).
const Name = "tool_search"

// searchResults is how many tools one tool_search call may add.
const searchResults = 5

// Spec describes tool_search. It has no group: phases never select it;
// the Offer adds it to the core when retrieval holds tools back.
func Spec() tools.Spec {
	return tools.Spec{
		Name: Name,
		Summary: "Find more tools by describing what you need to do (e.g. \"create a GitHub issue\", \"query the staging database\"). " +
			"The matching tools are listed and can be called from your next step. Use it when none of the offered tools fits; " +
			"more tools exist than are offered.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","minLength":1,"description":"what the tool should do, in a few words"}},"required":["query"],"additionalProperties":false}`),
		SideEffect: tools.Read,
		Idempotent: true,
		Backend:    "builtin",
	}
}

// ListedSpec is Spec as `reach tools list` shows it: a tool that exists
// only while retrieval is active, which the summary says first.
func ListedSpec() tools.Spec {
	s := Spec()
	s.Summary = fmt.Sprintf("Find more tools by describing what you need (offered only while tool retrieval is active: when a phase has more than %d tools). ", DefaultMaxTools) +
		s.Summary
	return s
}

// Tool is tool_search over o.
func (o *Offer) Tool() tools.Tool {
	return tools.Tool{Spec: Spec(), Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
		a, err := tools.Decode[struct {
			Query string `json:"query"`
		}](raw)
		if err != nil {
			return tools.Fail(err.Error())
		}
		return o.Search(ctx, a.Query)
	}}
}

// Search ranks the tools held back in the current conversation for query
// and adds the best to the offer from the next turn on.
func (o *Offer) Search(ctx context.Context, query string) tools.Result {
	if strings.TrimSpace(query) == "" {
		return tools.Fail("tool_search: the query is empty; describe what the tool should do")
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	c := o.cur
	if c == nil {
		return tools.OK("Every available tool is already offered; there is nothing more to find.")
	}
	offered := map[string]bool{}
	for _, n := range c.extra {
		offered[n] = true
	}
	for _, n := range c.pending {
		offered[n] = true
	}
	var added, already []string
	for _, cand := range o.rankFor(ctx, c, query) {
		if len(added)+len(already) == searchResults {
			break
		}
		if offered[cand.Name] {
			already = append(already, cand.Name)
			continue
		}
		c.pending = append(c.pending, cand.Name)
		c.scores[cand.Name] = cand.Score
		added = append(added, cand.Name)
	}
	if len(added) == 0 && len(already) == 0 {
		return tools.OK(fmt.Sprintf("No tool matches %q. Try other words (what the tool acts on, e.g. \"issue\", \"calendar\"), or go on with the offered tools.", query))
	}
	summaries := map[string]string{}
	for _, s := range c.pool {
		summaries[s.Name] = s.Summary
	}
	var b strings.Builder
	if len(added) > 0 {
		fmt.Fprintf(&b, "Found %d tool(s); they can be called from your next step:\n", len(added))
		for _, n := range added {
			fmt.Fprintf(&b, "- %s: %s\n", n, oneLine(summaries[n]))
		}
	}
	if len(already) > 0 {
		fmt.Fprintf(&b, "Already offered and matching: %s\n", strings.Join(already, ", "))
	}
	return tools.OK(strings.TrimRight(b.String(), "\n"))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
