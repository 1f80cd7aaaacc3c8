package toolsearch

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/reach-agent/reach/tools"
)

// fakeServers are MCP-like servers, each with the verbs and objects a real
// one of its kind would have; recombined they give n distinct tools.
var fakeServers = []struct {
	server  string
	objects []string
	about   string
}{
	{"github", []string{"issue", "pull_request", "repository", "branch", "release", "comment"}, "on GitHub"},
	{"jira", []string{"ticket", "sprint", "epic", "board", "worklog", "project"}, "in Jira"},
	{"slack", []string{"message", "channel", "thread", "reaction", "user_group", "reminder"}, "in Slack"},
	{"postgres", []string{"table", "query", "index", "schema", "view", "role"}, "in the PostgreSQL database"},
	{"calendar", []string{"event", "meeting", "invite", "availability", "room", "agenda"}, "in Google Calendar"},
	{"weather", []string{"forecast", "alert", "radar", "air_quality", "sunrise", "station"}, "from the weather service"},
	{"stripe", []string{"invoice", "payment", "refund", "customer", "subscription", "payout"}, "in Stripe"},
	{"sentry", []string{"error_event", "crash_report", "release_health", "alert_rule", "stack_trace", "deploy"}, "in Sentry"},
	{"drive", []string{"document", "spreadsheet", "folder", "permission", "revision", "shortcut"}, "in Google Drive"},
	{"k8s", []string{"pod", "deployment", "service", "namespace", "config_map", "secret_object"}, "in the Kubernetes cluster"},
}

var fakeVerbs = []string{"create", "list", "get", "update", "delete"}

// fakeTools returns n MCP-like tools (n ≤ 300) that record their calls.
func fakeTools(n int, calls *[]string) []tools.Tool {
	var out []tools.Tool
	for _, srv := range fakeServers {
		for _, obj := range srv.objects {
			for _, verb := range fakeVerbs {
				if len(out) == n {
					return out
				}
				name := fmt.Sprintf("mcp__%s__%s_%s", srv.server, verb, obj)
				schema, _ := json.Marshal(map[string]any{
					"type": "object",
					"properties": map[string]any{
						obj + "_id": map[string]string{"type": "string", "description": "id of the " + obj},
						"limit":     map[string]string{"type": "integer", "description": "most results"},
					},
				})
				out = append(out, tools.Tool{
					Spec: tools.Spec{
						Name: name, Summary: fmt.Sprintf("%s a %s %s.", verb, humanWords(obj), srv.about),
						Parameters: schema, SideEffect: sideOf(verb), Groups: []string{tools.GroupBase},
						Backend: "mcp:" + srv.server, Scopes: []string{"mcp:" + srv.server},
					},
					Run: func(context.Context, json.RawMessage) tools.Result {
						if calls != nil {
							*calls = append(*calls, name)
						}
						return tools.OK("done by " + name)
					},
				})
			}
		}
	}
	return out
}

func humanWords(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] == '_' {
			b[i] = ' '
		}
	}
	return string(b)
}

func sideOf(verb string) tools.SideEffect {
	if verb == "list" || verb == "get" {
		return tools.Read
	}
	return tools.Write
}

// builtins stand in for reach's own tools.
func builtins(n int) []tools.Tool {
	var out []tools.Tool
	for i := range n {
		name := fmt.Sprintf("builtin_%02d", i)
		out = append(out, tools.Tool{
			Spec: tools.Spec{Name: name, Summary: "a built-in tool", Parameters: json.RawMessage(`{"type":"object"}`),
				SideEffect: tools.Read, Groups: []string{tools.GroupBase}},
			Run: func(context.Context, json.RawMessage) tools.Result { return tools.OK(name) },
		})
	}
	return out
}

func specsOf(ts []tools.Tool) []tools.Spec {
	out := make([]tools.Spec, len(ts))
	for i, t := range ts {
		out[i] = t.Spec
		if out[i].Backend == "" {
			out[i].Backend = "builtin"
		}
	}
	return out
}
