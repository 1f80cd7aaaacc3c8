package app

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/iostreams"
	"github.com/reach-agent/reach/llm/llmtest"
	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/sandbox"
)

type fakeProbe SandboxReport

func (p fakeProbe) Probe(context.Context) SandboxReport { return SandboxReport(p) }

var landlock = fakeProbe{LandlockABI: 6, NetworkIsolated: true, Network: "Landlock TCP rules (ABI 6)"}

// modelsServer is an OpenAI-compatible server whose GET /models accepts
// only the key "good-key".
func modelsServer(t *testing.T, models ...string) string {
	t.Helper()
	script := llmtest.NewScript()
	script.Models = models
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good-key" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided"}}`))
			return
		}
		script.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func healthyConfig(t *testing.T, baseURL string) *config.Config {
	ep := config.Endpoint{Provider: "openai-compatible", Model: "test-model", BaseURL: baseURL, APIKey: "good-key", APIKeyEnv: "OPENAI_API_KEY"}
	return &config.Config{Endpoint: ep, Expert: ep, Sandbox: config.SandboxWorkspaceWrite, ProjectStateDir: filepath.Join(t.TempDir(), ".reach")}
}

func statuses(checks []Check) map[string]Check {
	out := map[string]Check{}
	for _, c := range checks {
		out[c.Name] = c
	}
	return out
}

func TestDoctorHealthy(t *testing.T) {
	t.Parallel()
	url := modelsServer(t, "test-model", "big-model")
	cfg := healthyConfig(t, url)
	cfg.Expert.Model = "big-model"
	var out bytes.Buffer
	d := &Doctor{Cfg: cfg, Dir: t.TempDir(), Sandbox: landlock, OpenDB: func(context.Context, string) error { return nil }}
	code := RunDoctor(context.Background(), &iostreams.IOStreams{Out: &out}, d)
	if code != ExitOK {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	names := []string{"rg", "git", "sandbox", "state dir", "database", "provider", "expert", "mcp"}
	if len(lines) != len(names) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(names), out.String())
	}
	for i, name := range names {
		status, rest, _ := strings.Cut(lines[i], " ")
		if !strings.HasPrefix(strings.TrimSpace(rest), name) || status == "fail" {
			t.Errorf("line %d = %q, want %s and not fail", i, lines[i], name)
		}
	}
	for _, want := range []string{"Landlock ABI 6", "does not exist yet; it will be created", "model test-model is listed", "model big-model is listed", "no MCP servers configured"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestDoctorBroken(t *testing.T) {
	t.Parallel()
	url := modelsServer(t, "test-model")
	dir := t.TempDir()
	stateFile := filepath.Join(dir, "state")
	if err := os.WriteFile(stateFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	mcpFile := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(mcpFile, []byte(`{"mcpServers":{"gone":{"command":"reach-no-such-mcp-server"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := healthyConfig(t, url)
	cfg.APIKey = "bad-key"
	cfg.Expert = config.Endpoint{Provider: "openai-compatible", Model: "gpt-9", BaseURL: url, APIKey: "good-key"}
	cfg.ProjectStateDir = stateFile
	cfg.MCPConfig = mcpFile
	d := &Doctor{Cfg: cfg, Dir: dir, Sandbox: fakeProbe{LandlockDetail: "kernel built without Landlock", Network: "none"},
		OpenDB: func(context.Context, string) error { return errors.New("file is not a database") }}
	got := statuses(d.Checks(context.Background()))
	cases := []struct {
		name   string
		status Status
		want   string
	}{
		{"state dir", StatusFail, "is not a directory"},
		{"database", StatusFail, "file is not a database"},
		{"provider", StatusFail, "the key was rejected (HTTP 401): check OPENAI_API_KEY"},
		{"expert", StatusWarn, "model gpt-9 is not among its 1 models; check --expert-model"},
		{"sandbox", StatusWarn, "the kernel lacks Landlock (kernel built without Landlock)"},
		{"mcp gone", StatusFail, "MCP server gone"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := got[tc.name]
			if !ok || c.Status != tc.status || !strings.Contains(c.Detail, tc.want) {
				t.Errorf("%s = %+v, want %s with %q", tc.name, c, tc.status, tc.want)
			}
		})
	}
	var out bytes.Buffer
	if code := RunDoctor(context.Background(), &iostreams.IOStreams{Out: &out}, d); code != ExitFailed {
		t.Errorf("exit %d with failures", code)
	}
}

func TestDoctorProviderEdges(t *testing.T) {
	t.Parallel()
	url := modelsServer(t, "test-model")
	notFound := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notFound.Close)
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("<html>")) }))
	t.Cleanup(html.Close)
	cases := []struct {
		name   string
		edit   func(c *config.Config)
		status Status
		want   string
	}{
		{"no key", func(c *config.Config) { c.APIKey = "" }, StatusFail, "no API key: set OPENAI_API_KEY"},
		{"unreachable", func(c *config.Config) { c.BaseURL = "http://127.0.0.1:1/v1" }, StatusFail, "unreachable"},
		{"not found", func(c *config.Config) { c.BaseURL = notFound.URL }, StatusFail, "HTTP 404: 404 page not found"},
		{"not a model list", func(c *config.Config) { c.BaseURL = html.URL }, StatusFail, "not an OpenAI-style model list"},
		{"model missing", func(c *config.Config) { c.Model = "gpt-x" }, StatusWarn, "model gpt-x is not among its 1 models; check --model"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := healthyConfig(t, url)
			tc.edit(cfg)
			cfg.Expert = cfg.Endpoint
			got := statuses((&Doctor{Cfg: cfg, Dir: t.TempDir(), Sandbox: landlock}).Checks(context.Background()))
			if c := got["provider"]; c.Status != tc.status || !strings.Contains(c.Detail, tc.want) {
				t.Errorf("provider = %+v, want %s with %q", c, tc.status, tc.want)
			}
			if c := got["expert"]; c.Status != tc.status || !strings.Contains(c.Detail, "the main model answers") {
				t.Errorf("expert = %+v, want it to follow the provider", c)
			}
		})
	}
}

func TestDoctorSandboxAndStateDir(t *testing.T) {
	t.Parallel()
	url := modelsServer(t, "test-model")
	existing := t.TempDir()
	t.Cleanup(func() { // after the subtests
		if entries, _ := os.ReadDir(existing); len(entries) != 0 {
			t.Errorf("the write probe left %d files behind", len(entries))
		}
	})
	cases := []struct {
		name   string
		edit   func(c *config.Config)
		probe  fakeProbe
		check  string
		status Status
		want   string
	}{
		{"sandbox off", func(c *config.Config) { c.Sandbox = config.SandboxOff }, landlock, "sandbox", StatusWarn, "without the OS sandbox"},
		{"no network isolation", nil, fakeProbe{LandlockABI: 3, Network: "no TCP rules"}, "sandbox", StatusWarn, "shell commands can reach the network"},
		{"network allowed anyway", func(c *config.Config) { c.AllowNetwork = true }, fakeProbe{LandlockABI: 3, Network: "no TCP rules"}, "sandbox", StatusOK, "network allowed (--allow-network)"},
		{"existing state dir", func(c *config.Config) { c.ProjectStateDir = existing }, landlock, "state dir", StatusOK, existing + " is writable"},
		{"nested state dir", func(c *config.Config) { c.ProjectStateDir = filepath.Join(c.ProjectStateDir, "x") }, landlock, "state dir", StatusOK, "will be created"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := healthyConfig(t, url)
			if tc.edit != nil {
				tc.edit(cfg)
			}
			got := statuses((&Doctor{Cfg: cfg, Dir: t.TempDir(), Sandbox: tc.probe}).Checks(context.Background()))
			if c := got[tc.check]; c.Status != tc.status || !strings.Contains(c.Detail, tc.want) {
				t.Errorf("%s = %+v, want %s with %q", tc.check, c, tc.status, tc.want)
			}
		})
	}
}

func TestKernelProbeReportsSandboxSupport(t *testing.T) {
	t.Parallel()
	s := sandbox.Probe()
	r := kernelProbe{}.Probe(context.Background())
	if r.LandlockABI != s.LandlockABI || r.NetworkIsolated != (s.UserNetNS || s.LandlockABI >= 4) || r.Network == "" {
		t.Errorf("report %+v from support %+v", r, s)
	}
	if (r.LandlockABI == 0) != (r.LandlockDetail != "") {
		t.Errorf("Landlock detail %q with ABI %d", r.LandlockDetail, r.LandlockABI)
	}
}

func TestDoctorDatabase(t *testing.T) {
	t.Parallel()
	url := modelsServer(t, "test-model")
	cases := []struct {
		name   string
		setup  func(t *testing.T, stateDir string)
		status Status
		want   string
	}{
		{"not created yet", func(*testing.T, string) {}, StatusOK, "does not exist yet"},
		{"opens", func(t *testing.T, dir string) {
			st, err := memory.Open(context.Background(), filepath.Join(dir, "reach.db"))
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
		}, StatusOK, "reach.db opens"},
		{"not a database", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "reach.db"), bytes.Repeat([]byte("garbage!"), 1000), 0o644); err != nil {
				t.Fatal(err)
			}
		}, StatusFail, "does not open"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := healthyConfig(t, url)
			cfg.ProjectStateDir = t.TempDir()
			tc.setup(t, cfg.ProjectStateDir)
			got := statuses((&Doctor{Cfg: cfg, Dir: t.TempDir(), Sandbox: landlock}).Checks(context.Background()))
			if c := got["database"]; c.Status != tc.status || !strings.Contains(c.Detail, tc.want) {
				t.Errorf("database = %+v, want %s with %q", c, tc.status, tc.want)
			}
		})
	}
}
