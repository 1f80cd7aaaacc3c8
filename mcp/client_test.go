package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reach-agent/reach/tools"
)

// reports collects what a Manager reports.
type reports struct {
	mu  sync.Mutex
	got []string
}

func (r *reports) add(server string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, server+": "+err.Error())
}

func (r *reports) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// setup starts the servers of cfg, registers their tools and returns an
// executor over them.
func setup(t *testing.T, cfg Config) (*tools.Executor, []string, *reports, error) {
	t.Helper()
	rep := &reports{}
	m := NewManager(cfg, Options{Dir: t.TempDir(), CallTimeout: 10 * time.Second, Report: rep.add})
	t.Cleanup(func() { m.Close() })
	ts, err := m.Tools(context.Background())
	reg := tools.NewRegistry()
	if rerr := reg.Register(ts...); rerr != nil {
		t.Fatalf("register MCP tools: %v", rerr)
	}
	return &tools.Executor{Registry: reg}, tools.Names(reg.Specs()), rep, err
}

func call(ex *tools.Executor, offered []string, name, args string) tools.Result {
	return ex.Execute(context.Background(), tools.Call{ID: "1", Name: name, Arguments: args}, offered)
}

func TestStdioServers(t *testing.T) {
	ex, names, rep, err := setup(t, Config{Servers: map[string]ServerConfig{
		"go":    stdioServer(t, "sdk"),
		"plain": stdioServer(t, "plain"),
	}})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	want := []string{"mcp__go__echo", "mcp__go__fail", "mcp__go__sleep", "mcp__plain__crash", "mcp__plain__shout"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("tools = %v, want %v", names, want)
	}
	spec, _ := ex.Registry.Lookup("mcp__go__echo")
	if spec.Spec.SideEffect != tools.Read || !spec.Spec.Idempotent || spec.Spec.Backend != "mcp:go" {
		t.Errorf("echo spec = %+v, want a read-only idempotent mcp:go tool", spec.Spec)
	}
	tests := []struct {
		name, tool, args string
		ok               bool
		want             string
	}{
		{"sdk server answers", "mcp__go__echo", `{"text":"hi"}`, true, "echo: hi"},
		{"plain server answers", "mcp__plain__shout", `{"text":"hi"}`, true, "HI"},
		{"tool error becomes a failure", "mcp__go__fail", `{}`, false, "quota exceeded"},
		{"schema checked before the call", "mcp__plain__shout", `{}`, false, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(ex, names, tt.tool, tt.args)
			got := res.Output + res.Error
			if res.Success != tt.ok || !strings.Contains(got, tt.want) {
				t.Errorf("%s(%s) = %+v, want success=%v containing %q", tt.tool, tt.args, res, tt.ok, tt.want)
			}
		})
	}
	if r := rep.list(); len(r) != 0 {
		t.Errorf("reports = %v, want none", r)
	}
}

func TestServerCrashingMidCallIsReportedOnceAndRestarted(t *testing.T) {
	ex, names, rep, err := setup(t, Config{Servers: map[string]ServerConfig{"plain": stdioServer(t, "plain")}})
	if err != nil {
		t.Fatal(err)
	}
	res := call(ex, names, "mcp__plain__crash", `{}`)
	if res.Success || !strings.Contains(res.Error, "stopped") || !strings.Contains(res.Error, "started again") {
		t.Fatalf("crash = %+v, want a failure saying the server stopped and will be started again", res)
	}
	if r := rep.list(); len(r) != 1 || !strings.HasPrefix(r[0], "plain: ") {
		t.Fatalf("reports = %v, want one for plain", r)
	}
	res = call(ex, names, "mcp__plain__shout", `{"text":"back"}`)
	if !res.Success || res.Output != "BACK" {
		t.Fatalf("call after the crash = %+v, want the restarted server to answer BACK", res)
	}
}

func TestFailingServerIsSkipped(t *testing.T) {
	_, names, rep, err := setup(t, Config{Servers: map[string]ServerConfig{
		"broken":  stdioServer(t, "exit"),
		"missing": {Command: "/nonexistent/mcp-server"},
		"go":      stdioServer(t, "sdk"),
	}})
	if err == nil {
		t.Fatal("Tools() error = nil, want the failures of broken and missing")
	}
	if len(names) != 3 || !strings.HasPrefix(names[0], "mcp__go__") {
		t.Errorf("tools = %v, want go's three tools only", names)
	}
	r := strings.Join(rep.list(), "\n")
	if !strings.Contains(r, "broken: ") || !strings.Contains(r, "missing: ") || len(rep.list()) != 2 {
		t.Errorf("reports = %q, want one each for broken and missing", r)
	}
}

func TestCallTimeout(t *testing.T) {
	sc := stdioServer(t, "sdk")
	sc.Timeout = 0.3
	ex, names, _, err := setup(t, Config{Servers: map[string]ServerConfig{"go": sc}})
	if err != nil {
		t.Fatal(err)
	}
	res := call(ex, names, "mcp__go__sleep", `{"seconds":5}`)
	if res.Success || !strings.Contains(res.Error, "timed out") {
		t.Fatalf("sleep = %+v, want a timeout", res)
	}
	if res := call(ex, names, "mcp__go__echo", `{"text":"still here"}`); !res.Success {
		t.Errorf("echo after a timeout = %+v, want the session kept", res)
	}
}

func TestStreamableHTTPServer(t *testing.T) {
	srv := newSDKServer(0)
	var sawAuth sync.Once
	gotAuth := make(chan string, 1)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAuth.Do(func() { gotAuth <- r.Header.Get("Authorization") })
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	t.Setenv("REACH_TEST_TOKEN", "s3cret")
	ex, names, _, err := setup(t, Config{Servers: map[string]ServerConfig{
		"web": {URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer ${REACH_TEST_TOKEN}"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := <-gotAuth; got != "Bearer s3cret" {
		t.Errorf("Authorization = %q, want the header with the variable expanded", got)
	}
	res := call(ex, names, "mcp__web__echo", `{"text":"over http"}`)
	if !res.Success || res.Output != "echo: over http" {
		t.Fatalf("echo over HTTP = %+v", res)
	}
}

func TestServerWith300Tools(t *testing.T) {
	ex, names, _, err := setup(t, Config{Servers: map[string]ServerConfig{"big": stdioServer(t, "big")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 303 {
		t.Fatalf("registered %d tools, want 303", len(names))
	}
	if res := call(ex, names, "mcp__big__tool_299", `{}`); !res.Success || res.Output != "299" {
		t.Errorf("tool_299 = %+v", res)
	}
}
