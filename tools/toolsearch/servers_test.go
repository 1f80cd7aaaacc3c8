package toolsearch

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/llm/llmtest"
)

func TestServerFirstPassWithTheScriptedModel(t *testing.T) {
	t.Parallel()
	all := specsOf(append(builtins(9), fakeTools(300, nil)...)) // 10 servers
	srv := llmtest.NewServer(t, llmtest.Reply(`The task needs these: ["sentry", "github", "nonsense"]`))
	client := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "k"})
	task := "a crash report came in after the last deploy; open a ticket for it"
	o := New(Options{Task: task})
	var usages []llm.Usage
	onUsage := func(_ context.Context, r llm.Response) { usages = append(usages, r.Usage) }
	o.SetServerPicker(ServerPicker{Client: client, Model: "m", OnUsage: onUsage}, 10)
	ctx := context.Background()
	first := o.Offer(ctx, turn("research", 1, task, all))
	o.Offer(ctx, turn("research", 2, task, all))
	o.Offer(ctx, turn("implementation", 1, task, all)) // a new conversation: no second call

	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model was asked %d times, want once", len(reqs))
	}
	// The budget meter hears of the call (usage is estimated by the
	// scripted server from the request size).
	if len(usages) != 1 || usages[0].PromptTokens < 100 {
		t.Errorf("usage reported to the meter = %+v, want one call with the prompt's tokens", usages)
	}
	prompt := reqs[0].LastMessage().Content
	for _, want := range []string{task, "- github: create_issue", "- weather: ", "- k8s: "} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the question lacks %q:\n%s", want, prompt)
		}
	}
	for _, s := range first {
		if sv := serverOf(s); sv != "" && sv != "sentry" && sv != "github" {
			t.Errorf("offered %s from %s, which the model did not choose", s.Name, sv)
		}
	}
	if !slicesContain(names(first), "mcp__sentry__get_crash_report") {
		t.Errorf("offer %v lacks the sentry crash report tool", names(first))
	}
	// tool_search still searches every server.
	res := o.Search(ctx, "create a jira ticket")
	if !res.Success || !strings.Contains(res.Output, "mcp__jira__create_ticket") {
		t.Errorf("tool_search outside the chosen servers = %+v", res)
	}
}

// picker is a ServerPicker stand-in that counts calls.
type picker struct {
	names []string
	err   error
	calls int
}

func (p *picker) Pick(context.Context, string, []Server) ([]string, error) {
	p.calls++
	return p.names, p.err
}

func TestServerFirstPassThreshold(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		tools     int // 30 per server
		threshold int
		pick      *picker
		wantCalls int
		wantOnly  string // the only server offered; "" for several
	}{
		{"below the threshold: off", 150, 10, &picker{names: []string{"github"}}, 0, ""},
		{"at the threshold: on", 150, 5, &picker{names: []string{"github"}}, 1, "github"},
		{"default threshold is 10 servers", 300, 0, &picker{names: []string{"slack"}}, 1, "slack"},
		{"a failed pick ranks every server", 300, 5, &picker{err: errors.New("model down")}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all := specsOf(append(builtins(9), fakeTools(tt.tools, nil)...))
			var reported []error
			o := New(Options{Task: "post a Slack message about the GitHub issue and the Jira ticket", Report: func(err error) { reported = append(reported, err) }})
			o.SetServerPicker(tt.pick, tt.threshold)
			got := o.Offer(context.Background(), turn("research", 1, "post a Slack message about the GitHub issue and the Jira ticket", all))
			if tt.pick.calls != tt.wantCalls {
				t.Errorf("picker called %d times, want %d", tt.pick.calls, tt.wantCalls)
			}
			seen := map[string]bool{}
			for _, s := range got {
				if sv := serverOf(s); sv != "" {
					seen[sv] = true
				}
			}
			if tt.wantOnly != "" && (len(seen) != 1 || !seen[tt.wantOnly]) {
				t.Errorf("offered servers %v, want only %s", seen, tt.wantOnly)
			}
			if tt.wantOnly == "" && len(seen) < 2 {
				t.Errorf("offered servers %v, want several", seen)
			}
			if (tt.pick.err != nil) != (len(reported) == 1) {
				t.Errorf("reported %v for pick error %v", reported, tt.pick.err)
			}
		})
	}
}

func TestParsePick(t *testing.T) {
	svs := []Server{{Name: "github"}, {Name: "jira"}, {Name: "k8s"}}
	tests := []struct {
		answer  string
		want    []string
		wantErr bool
	}{
		{`["jira","github"]`, []string{"jira", "github"}, false},
		{"Sure:\n```json\n[\"k8s\"]\n```", []string{"k8s"}, false},
		{`[]`, nil, false},
		{`github and jira, I think`, []string{"github", "jira"}, false},
		{`["gitlab"]`, nil, true},
		{`no idea`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			got, err := parsePick(tt.answer, svs)
			if (err != nil) != tt.wantErr || strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("parsePick(%q) = %v, %v; want %v (error %v)", tt.answer, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func slicesContain(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
