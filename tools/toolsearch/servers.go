package toolsearch

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/tools"
)

// DefaultServerThreshold is how many MCP servers a phase's tools must
// come from before the model is asked which of them matter.
const DefaultServerThreshold = 10

// Server is what the model is told about one MCP server.
type Server struct {
	Name  string
	Tools []string // tool names, without the mcp__<server>__ prefix
	About string   // the summary of its first tool, as a hint
}

// ServerPicker asks the model, in one call, which MCP servers a task
// needs: the first pass of retrieval when there are very many servers.
type ServerPicker struct {
	Client llm.Client
	Model  string
	// OnUsage, when set, is told of the call's usage, so the run's token
	// and cost budgets count the first pass too.
	OnUsage func(context.Context, llm.Response)
}

// Pick returns the names of the servers the model chose, in its order;
// names it made up are dropped.
func (p ServerPicker) Pick(ctx context.Context, task string, servers []Server) ([]string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Task:\n%s\n\nTool servers:\n", truncate(task, 2000))
	for _, s := range servers {
		fmt.Fprintf(&b, "- %s: %s", s.Name, strings.Join(s.Tools, ", "))
		if s.About != "" {
			fmt.Fprintf(&b, " (e.g. %s)", truncate(s.About, 160))
		}
		b.WriteString("\n")
	}
	req := llm.Request{Model: p.Model, Messages: []llm.Message{
		{Role: llm.System, Content: "You pick the tool servers a coding agent may need for a task. " +
			`Answer with only a JSON array of server names, most relevant first, e.g. ["github","postgres"]; [] when none is needed.`},
		{Role: llm.User, Content: b.String()},
	}}
	resp, err := p.Client.Complete(ctx, req, nil)
	if err != nil {
		return nil, fmt.Errorf("ask the model which MCP servers are relevant: %w", err)
	}
	if p.OnUsage != nil {
		p.OnUsage(ctx, resp)
	}
	return parsePick(resp.Message.Content, servers)
}

// parsePick reads the model's answer: a JSON array of names, or failing
// that the known names it mentions.
func parsePick(answer string, servers []Server) ([]string, error) {
	known := map[string]bool{}
	for _, s := range servers {
		known[s.Name] = true
	}
	var names []string
	if i, j := strings.Index(answer, "["), strings.LastIndex(answer, "]"); i >= 0 && j > i {
		if err := json.Unmarshal([]byte(answer[i:j+1]), &names); err != nil {
			names = nil
		}
	}
	if names == nil {
		for _, w := range strings.FieldsFunc(answer, func(r rune) bool { return !(r == '-' || r == '_' || r == '.' || isAlnum(r)) }) {
			names = append(names, w)
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if known[n] && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if len(out) == 0 && !strings.Contains(answer, "[]") {
		return nil, fmt.Errorf("the model named no known MCP server in %q", truncate(answer, 200))
	}
	return out, nil
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// serverOf is the MCP server of a tool ("" for other backends).
func serverOf(s tools.Spec) string {
	name, ok := strings.CutPrefix(s.Backend, "mcp:")
	if !ok {
		return ""
	}
	return name
}

// servers groups pool by MCP server, sorted by name.
func servers(pool []tools.Spec) []Server {
	by := map[string]*Server{}
	for _, s := range pool {
		name := serverOf(s)
		if name == "" {
			continue
		}
		sv := by[name]
		if sv == nil {
			sv = &Server{Name: name, About: s.Summary}
			by[name] = sv
		}
		sv.Tools = append(sv.Tools, strings.TrimPrefix(s.Name, "mcp__"+name+"__"))
	}
	out := make([]Server, 0, len(by))
	for _, sv := range by {
		out = append(out, *sv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SetServerPicker turns on the first pass: when a phase's held-back tools
// come from at least threshold MCP servers (DefaultServerThreshold when
// 0), the model is asked once, for the run, which servers matter, and
// only their tools are ranked into the offer. tool_search still searches
// every tool. A failed pick is reported and ranks every server.
func (o *Offer) SetServerPicker(p interface {
	Pick(ctx context.Context, task string, servers []Server) ([]string, error)
}, threshold int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if threshold <= 0 {
		threshold = DefaultServerThreshold
	}
	o.picker, o.pickAt = p, threshold
}

// pickServers is the first pass for a new conversation over pool: nil
// (every server) below the threshold or without a picker; the chosen
// servers otherwise, asked once per Offer.
func (o *Offer) pickServers(ctx context.Context, task string, pool []tools.Spec) map[string]bool {
	if o.picker == nil {
		return nil
	}
	svs := servers(pool)
	if len(svs) < o.pickAt {
		return nil
	}
	if !o.picked {
		o.picked = true
		names, err := o.picker.Pick(ctx, task, svs)
		if err != nil {
			o.report(err)
			return nil
		}
		o.chosen = map[string]bool{}
		for _, n := range names {
			o.chosen[n] = true
		}
	}
	return o.chosen
}
