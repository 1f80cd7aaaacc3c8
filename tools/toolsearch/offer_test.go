package toolsearch

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reach-agent/reach/agent"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/retrieval"
	"github.com/reach-agent/reach/tools"
)

func turn(phase string, n int, task string, all []tools.Spec, lastUsed ...string) agent.OfferTurn {
	return agent.OfferTurn{Phase: phase, Turn: n, Messages: []llm.Message{{Role: llm.System, Content: "sys"}, {Role: llm.User, Content: task}}, Tools: all, LastUsed: lastUsed}
}

func names(specs []tools.Spec) []string { return tools.Names(specs) }

func TestOfferKeepsBuiltinsAndTheTopK(t *testing.T) {
	t.Parallel()
	all := specsOf(append(builtins(9), fakeTools(300, nil)...))
	o := New(Options{})
	got := o.Offer(context.Background(), turn("research", 1, "create a GitHub issue about the failing build", all))
	if len(got) != DefaultMaxTools {
		t.Fatalf("offered %d tools, want %d", len(got), DefaultMaxTools)
	}
	n := names(got)
	for i := range 9 {
		if n[i] != all[i].Name {
			t.Errorf("core %d = %s, want the built-ins first, in order", i, n[i])
		}
	}
	if n[9] != Name {
		t.Errorf("tool 10 = %s, want %s", n[9], Name)
	}
	if n[10] != "mcp__github__create_issue" {
		t.Errorf("best ranked = %s, want mcp__github__create_issue", n[10])
	}
	cur := o.Current()
	if cur.Phase != "research" || cur.Offered != 30 || len(cur.Ranked) != 20 || cur.Ranked[0].Score < cur.Ranked[19].Score {
		t.Errorf("current = %+v", cur)
	}
}

func TestOfferPassesSmallToolsetsThrough(t *testing.T) {
	t.Parallel()
	all := specsOf(append(builtins(9), fakeTools(21, nil)...))
	o := New(Options{})
	got := o.Offer(context.Background(), turn("research", 1, "anything", all))
	if !slices.Equal(names(got), names(all)) {
		t.Errorf("30 tools must all be offered as they are")
	}
	if cur := o.Current(); len(cur.Ranked) != 0 || cur.Offered != 30 {
		t.Errorf("nothing was held back: %+v", cur)
	}
	if res := o.Search(context.Background(), "issue"); !res.Success || !strings.Contains(res.Output, "already offered") {
		t.Errorf("tool_search without retrieval: %+v", res)
	}
}

func TestOfferIsStableAndToolSearchAppends(t *testing.T) {
	t.Parallel()
	all := specsOf(append(builtins(9), fakeTools(300, nil)...))
	o := New(Options{})
	ctx := context.Background()
	task := "create a GitHub issue about the failing build"
	first := names(o.Offer(ctx, turn("research", 1, task, all)))
	if slices.Contains(first, "mcp__stripe__create_refund") {
		t.Fatal("a refund tool should not rank for a GitHub task")
	}
	res := o.Search(ctx, "create a refund in stripe")
	if !res.Success || !strings.Contains(res.Output, "mcp__stripe__create_refund") {
		t.Fatalf("tool_search: %+v", res)
	}
	second := names(o.Offer(ctx, turn("research", 2, task, all, Name)))
	if !slices.Equal(second[:len(first)], first) {
		t.Errorf("the offer must keep its prefix:\n%v\n%v", first, second[:len(first)])
	}
	added := second[len(first):]
	if len(added) == 0 || added[0] != "mcp__stripe__create_refund" || len(added) > searchResults {
		t.Errorf("appended %v", added)
	}
	third := names(o.Offer(ctx, turn("research", 3, task, all)))
	if !slices.Equal(third, second) {
		t.Errorf("a turn without news must offer the same tools")
	}
	again := o.Search(ctx, "create a refund in stripe")
	if !strings.Contains(again.Output, "Already offered and matching: mcp__stripe__create_refund") {
		t.Errorf("second search: %s", again.Output)
	}
	if res := o.Search(ctx, "zzzz qqqq"); !res.Success || !strings.Contains(res.Output, "No tool matches") {
		t.Errorf("no match: %+v", res)
	}
	if res := o.Search(ctx, "  "); res.Success {
		t.Errorf("an empty query must fail")
	}
}

func TestOfferRanking(t *testing.T) {
	t.Parallel()
	all := specsOf(append(builtins(9), fakeTools(300, nil)...))
	ctx := context.Background()
	tests := []struct {
		name     string
		opts     Options
		lastUsed []string
		query    string
		check    func(t *testing.T, offered []string)
	}{
		{
			name: "scope filter before the cut",
			opts: Options{Allowed: func(_ string, s tools.Spec) bool { return s.Backend != "mcp:github" }},
			check: func(t *testing.T, offered []string) {
				gh := 0
				for _, n := range offered {
					if strings.HasPrefix(n, "mcp__github__") {
						gh++
					}
				}
				if gh != 0 || len(offered) != DefaultMaxTools {
					t.Errorf("%d github tools offered, %d in all (the cut must come after the filter)", gh, len(offered))
				}
			},
		},
		{
			name: "quality penalty demotes",
			opts: Options{Penalty: func(s tools.Spec) float64 {
				if s.Name == "mcp__github__create_issue" {
					return 0.2
				}
				return 1
			}},
			check: func(t *testing.T, offered []string) {
				if i := slices.Index(offered, "mcp__github__create_issue"); i >= 0 && i < 13 {
					t.Errorf("a penalised tool must not stay first")
				}
			},
		},
		{
			name:     "last used boost",
			lastUsed: []string{"mcp__weather__get_forecast"},
			query:    "comment on the github issue",
			check: func(t *testing.T, offered []string) {
				if !slices.Contains(offered, "mcp__weather__get_forecast") {
					// It matches nothing in the query: only the boost brings it in.
					t.Errorf("the tool used last turn must be offered: %v", offered)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := New(tc.opts)
			if tc.lastUsed != nil {
				o.Offer(ctx, turn("research", 2, "earlier", all, tc.lastUsed...))
			}
			q := tc.query
			if q == "" {
				q = "create a GitHub issue, a jira ticket and a slack message about the failing build"
			}
			got := o.Offer(ctx, turn("planning", 1, q, all))
			tc.check(t, names(got))
		})
	}
}

func TestOfferReportsEmbeddingFailureOnce(t *testing.T) {
	t.Parallel()
	all := specsOf(append(builtins(9), fakeTools(300, nil)...))
	var reports []error
	o := New(Options{Embedder: failing{}, Report: func(err error) { reports = append(reports, err) }})
	ctx := context.Background()
	got := names(o.Offer(ctx, turn("research", 1, "create a jira ticket", all)))
	o.Offer(ctx, turn("planning", 1, "create a jira ticket", all))
	if len(reports) != 1 {
		t.Errorf("reported %d times, want once: %v", len(reports), reports)
	}
	if got[10] != "mcp__jira__create_ticket" {
		t.Errorf("BM25 must carry on when embeddings fail: %v", got[10:13])
	}
}

type failing struct{}

func (failing) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("connection refused")
}

var _ retrieval.Embedder = failing{}
