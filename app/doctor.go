package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/iostreams"
	"github.com/reach-agent/reach/mcp"
	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/tools/aider"
	"github.com/reach-agent/reach/tools/search"
	"github.com/reach-agent/reach/version"
)

// Status is the verdict of one doctor check.
type Status string

// Verdicts of reach doctor: fail makes the command exit 1.
const (
	StatusOK   Status = "ok"
	StatusWarn Status = "warn"
	StatusFail Status = "fail"
)

// Check is one line of reach doctor.
type Check struct {
	Name   string
	Status Status
	Detail string
}

// Doctor checks what a run of reach relies on. Nil fields take working
// defaults.
type Doctor struct {
	Cfg *config.Config
	Dir string // the project root
	// HTTP is used for the provider checks; nil means a client with a
	// 15-second timeout.
	HTTP *http.Client
	// Sandbox probes the OS sandbox; nil means this machine's kernel.
	Sandbox SandboxProbe
	// OpenDB opens (and closes) the database at path; nil means
	// memory.Open. It is not called when the database does not exist yet.
	OpenDB func(ctx context.Context, path string) error
	// Timeout bounds each external command and each server start; 0
	// means 20 seconds.
	Timeout time.Duration
}

// RunDoctor prints one line per check and returns 0 when nothing failed,
// 1 otherwise.
func RunDoctor(ctx context.Context, io *iostreams.IOStreams, d *Doctor) int {
	code := ExitOK
	for _, c := range d.Checks(ctx) {
		fmt.Fprintf(io.Out, "%-4s  %-12s %s\n", c.Status, c.Name, c.Detail)
		if c.Status == StatusFail {
			code = ExitFailed
		}
	}
	return code
}

// Checks runs every check, in the order they are printed.
func (d *Doctor) Checks(ctx context.Context) []Check {
	out := []Check{d.rg(ctx), d.git(ctx)}
	if d.Cfg.UseAider {
		out = append(out, d.aider(ctx))
	}
	out = append(out, d.sandbox(ctx), d.stateDir(), d.database(ctx))
	models := &modelLister{client: d.httpClient()}
	main := d.provider(ctx, models)
	out = append(out, main, d.expert(ctx, models, main))
	return append(out, d.mcpServers(ctx)...)
}

func (d *Doctor) timeout() time.Duration {
	if d.Timeout > 0 {
		return d.Timeout
	}
	return 20 * time.Second
}

func (d *Doctor) httpClient() *http.Client {
	if d.HTTP != nil {
		return d.HTTP
	}
	return &http.Client{Timeout: 15 * time.Second}
}

// versionOf runs `path --version` and returns its first line.
func (d *Doctor) versionOf(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout())
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", path, err)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(line), nil
}

func (d *Doctor) rg(ctx context.Context) Check {
	backend := search.Backend(search.Options{})
	p, err := exec.LookPath("rg")
	if err != nil {
		return Check{"rg", StatusWarn, "not found on PATH; ripgrep_search uses the " + backend + ". Install ripgrep for faster searches"}
	}
	v, err := d.versionOf(ctx, p)
	if err != nil {
		return Check{"rg", StatusWarn, fmt.Sprintf("%s does not run (%v); ripgrep_search uses the %s", p, err, backend)}
	}
	return Check{"rg", StatusOK, v + "; search backend: " + backend}
}

func (d *Doctor) git(ctx context.Context) Check {
	p, err := exec.LookPath("git")
	if err != nil {
		return Check{"git", StatusWarn, "not found on PATH; file search walks the tree and checkpoints are copied under the state dir. Install git"}
	}
	v, err := d.versionOf(ctx, p)
	if err != nil {
		return Check{"git", StatusWarn, fmt.Sprintf("%s does not run: %v", p, err)}
	}
	where := "not a git repository (checkpoints are copied under the state dir)"
	if _, err := os.Stat(filepath.Join(d.Dir, ".git")); err == nil {
		where = "the project is a git repository"
	}
	return Check{"git", StatusOK, v + "; " + where}
}

func (d *Doctor) aider(ctx context.Context) Check {
	p, err := aider.LookPath(aider.Options{})
	if err != nil {
		return Check{"aider", StatusFail, err.Error()}
	}
	v, err := d.versionOf(ctx, p)
	if err != nil {
		return Check{"aider", StatusFail, fmt.Sprintf("%s does not run: %v; reinstall it (%s)", p, err, aider.InstallHint)}
	}
	detail := v + " (" + p + ")"
	if d.Cfg.AiderConfig != "" {
		detail += "; config " + d.Cfg.AiderConfig
	}
	return Check{"aider", StatusOK, detail}
}

func (d *Doctor) sandbox(ctx context.Context) Check {
	if d.Cfg.Sandbox == config.SandboxOff {
		return Check{"sandbox", StatusWarn, "off (--sandbox off): shell commands run without the OS sandbox"}
	}
	probe := d.Sandbox
	if probe == nil {
		probe = kernelProbe{}
	}
	r := probe.Probe(ctx)
	net := "network isolation: " + r.Network
	if !r.NetworkIsolated {
		net = "no network isolation (" + r.Network + ")"
	}
	if d.Cfg.AllowNetwork {
		net += "; network allowed (--allow-network)"
	}
	switch {
	case r.LandlockABI <= 0:
		return Check{"sandbox", StatusWarn, fmt.Sprintf("%s: the kernel lacks Landlock (%s), so shell commands cannot be confined to the project; %s",
			d.Cfg.Sandbox, r.LandlockDetail, net)}
	case !r.NetworkIsolated && !d.Cfg.AllowNetwork:
		return Check{"sandbox", StatusWarn, fmt.Sprintf("%s: Landlock ABI %d; %s, so shell commands can reach the network", d.Cfg.Sandbox, r.LandlockABI, net)}
	}
	return Check{"sandbox", StatusOK, fmt.Sprintf("%s: Landlock ABI %d; %s", d.Cfg.Sandbox, r.LandlockABI, net)}
}

func (d *Doctor) stateDir() Check {
	dir := d.Cfg.ProjectStateDir
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return Check{"state dir", StatusFail, dir + " is not a directory: remove it or choose another with --project-state-dir"}
	case err == nil:
		if err := probeWrite(dir); err != nil {
			return Check{"state dir", StatusFail, fmt.Sprintf("%s is not writable: %v", dir, err)}
		}
		return Check{"state dir", StatusOK, dir + " is writable"}
	case !errors.Is(err, os.ErrNotExist):
		return Check{"state dir", StatusFail, fmt.Sprintf("%s: %v", dir, err)}
	}
	// It will be created: the nearest existing parent must take it.
	parent := filepath.Dir(dir)
	for {
		fi, err := os.Stat(parent)
		if err == nil {
			if !fi.IsDir() {
				return Check{"state dir", StatusFail, fmt.Sprintf("%s cannot be created: %s is not a directory", dir, parent)}
			}
			break
		}
		next := filepath.Dir(parent)
		if next == parent {
			return Check{"state dir", StatusFail, fmt.Sprintf("%s cannot be created: %v", dir, err)}
		}
		parent = next
	}
	if err := probeWrite(parent); err != nil {
		return Check{"state dir", StatusFail, fmt.Sprintf("%s cannot be created: %s is not writable: %v", dir, parent, err)}
	}
	return Check{"state dir", StatusOK, dir + " does not exist yet; it will be created on the first run"}
}

// probeWrite creates and removes a file in dir.
func probeWrite(dir string) error {
	f, err := os.CreateTemp(dir, ".reach-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func (d *Doctor) database(ctx context.Context) Check {
	path := filepath.Join(d.Cfg.ProjectStateDir, "reach.db")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return Check{"database", StatusOK, path + " does not exist yet; it will be created on the first run"}
	}
	open := d.OpenDB
	if open == nil {
		open = openStore
	}
	if err := open(ctx, path); err != nil {
		return Check{"database", StatusFail, fmt.Sprintf("%s does not open: %v", path, err)}
	}
	return Check{"database", StatusOK, path + " opens"}
}

// mcpServers starts every configured MCP server and lists its tools.
func (d *Doctor) mcpServers(ctx context.Context) []Check {
	path := d.Cfg.MCPConfig
	if path == "" {
		return []Check{{"mcp", StatusOK, "no MCP servers configured"}}
	}
	cfg, err := mcp.LoadConfig(path)
	if err != nil {
		return []Check{{"mcp", StatusFail, err.Error()}}
	}
	names := cfg.Names()
	if len(names) == 0 {
		return []Check{{"mcp", StatusOK, path + " enables no servers"}}
	}
	out := make([]Check, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = d.mcpServer(ctx, n, cfg.Servers[n])
		}()
	}
	wg.Wait()
	return out
}

func (d *Doctor) mcpServer(ctx context.Context, name string, s mcp.ServerConfig) Check {
	m := mcp.NewManager(mcp.Config{Servers: map[string]mcp.ServerConfig{name: s}},
		mcp.Options{Dir: d.Dir, StartTimeout: d.timeout(), Version: version.Version})
	defer m.Close()
	ts, err := m.Tools(ctx)
	if err != nil {
		return Check{"mcp " + name, StatusFail, err.Error()}
	}
	return Check{"mcp " + name, StatusOK, fmt.Sprintf("started; %d tools", len(ts))}
}

// openStore opens the memory database and closes it again.
func openStore(ctx context.Context, path string) error {
	st, err := memory.Open(ctx, path)
	if err != nil {
		return err
	}
	return st.Close()
}
