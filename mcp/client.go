package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reach-agent/reach/tools"
)

// Options configure a Manager.
type Options struct {
	// Dir is the working directory of stdio servers.
	Dir string
	// CallTimeout bounds one tool call (default 60 s); a server's own
	// "timeout" wins.
	CallTimeout time.Duration
	// StartTimeout bounds starting a server and listing its tools
	// (default 30 s).
	StartTimeout time.Duration
	// Report is told, once per failure, that a server could not start or
	// stopped; nil discards.
	Report func(server string, err error)
	// Version is reach's version, sent in the MCP handshake.
	Version string
}

// Manager owns the sessions of the configured servers for a run. A server
// is started on first use, kept for the run, and started again on the
// next use after it died. Safe for concurrent use.
type Manager struct {
	cfg  Config
	opts Options

	mu      sync.Mutex
	servers map[string]*server
}

// server is the state of one configured server.
type server struct {
	name string
	cfg  ServerConfig

	mu       sync.Mutex
	session  *sdk.ClientSession
	reported bool // the current failure has been reported
}

// NewManager prepares the servers of cfg; nothing is started yet.
func NewManager(cfg Config, opts Options) *Manager {
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 60 * time.Second
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 30 * time.Second
	}
	m := &Manager{cfg: cfg, opts: opts, servers: map[string]*server{}}
	for _, n := range cfg.Names() {
		m.servers[n] = &server{name: n, cfg: cfg.Servers[n]}
	}
	return m
}

// Tools starts every server (in parallel), lists its tools and returns
// them ready to register. A server that fails is reported and skipped;
// its error is also returned, joined with the others.
func (m *Manager) Tools(ctx context.Context) ([]tools.Tool, error) {
	names := m.cfg.Names()
	lists := make([][]tools.Tool, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lists[i], errs[i] = m.serverTools(ctx, m.servers[n])
		}()
	}
	wg.Wait()
	var out []tools.Tool
	for _, l := range lists {
		out = append(out, l...)
	}
	return out, errors.Join(errs...)
}

func (m *Manager) serverTools(ctx context.Context, s *server) ([]tools.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, m.opts.StartTimeout)
	defer cancel()
	cs, err := m.session(ctx, s)
	if err != nil {
		return nil, err
	}
	var out []tools.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			err = fmt.Errorf("MCP server %s: list tools: %w", s.name, err)
			m.fail(s, cs, err)
			return nil, err
		}
		out = append(out, m.toTool(s, t))
	}
	return out, nil
}

// session returns the live session of s, starting the server if needed.
func (m *Manager) session(ctx context.Context, s *server) (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session != nil {
		return s.session, nil
	}
	t, err := m.transport(s)
	if err == nil {
		client := sdk.NewClient(&sdk.Implementation{Name: "reach", Version: m.opts.Version}, nil)
		var cs *sdk.ClientSession
		cs, err = client.Connect(ctx, t, nil)
		if err == nil {
			s.session, s.reported = cs, false
			return cs, nil
		}
	}
	err = fmt.Errorf("MCP server %s: start: %w", s.name, err)
	if !s.reported {
		s.reported = true
		m.report(s.name, err)
	}
	return nil, err
}

func (m *Manager) transport(s *server) (sdk.Transport, error) {
	if s.cfg.transport() == "http" {
		hc := &http.Client{Transport: headerTransport{headers: expandAll(s.cfg.Headers), base: http.DefaultTransport}}
		return &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}, nil
	}
	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	cmd.Dir = m.opts.Dir
	cmd.Env = os.Environ()
	for k, v := range s.cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+os.ExpandEnv(v))
	}
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil
}

// fail drops the session cs of s (if it is still the current one) so the
// next use starts the server again, and reports err once.
func (m *Manager) fail(s *server, cs *sdk.ClientSession, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == cs && cs != nil {
		s.session = nil
		go cs.Close() // a dead stdio server may take a moment to reap
	}
	if !s.reported {
		s.reported = true
		m.report(s.name, err)
	}
}

func (m *Manager) report(server string, err error) {
	if m.opts.Report != nil {
		m.opts.Report(server, err)
	}
}

// Close ends every session.
func (m *Manager) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var errs []error
	for _, s := range m.servers {
		s.mu.Lock()
		if s.session != nil {
			errs = append(errs, s.session.Close())
			s.session = nil
		}
		s.mu.Unlock()
	}
	return errors.Join(errs...)
}

// toTool turns an MCP tool description into a registry tool.
func (m *Manager) toTool(s *server, t *sdk.Tool) tools.Tool {
	params, err := json.Marshal(t.InputSchema)
	if err != nil || len(params) == 0 || string(params) == "null" {
		params = json.RawMessage(`{"type":"object"}`)
	}
	side, idem := tools.Exec, false
	if a := t.Annotations; a != nil {
		idem = a.IdempotentHint
		switch {
		case a.ReadOnlyHint:
			side, idem = tools.Read, true
		case a.OpenWorldHint != nil && *a.OpenWorldHint && (a.DestructiveHint == nil || !*a.DestructiveHint):
			side = tools.Network
		}
	}
	timeout := s.cfg.CallTimeout(m.opts.CallTimeout)
	summary := strings.TrimSpace(t.Description)
	if summary == "" {
		summary = t.Title
	}
	remote := t.Name
	return tools.Tool{
		Spec: tools.Spec{
			Name:       ToolName(s.name, t.Name),
			Summary:    summary,
			Parameters: params,
			SideEffect: side,
			Idempotent: idem,
			Timeout:    timeout,
			Scopes:     []string{"mcp:" + s.name},
			Groups:     []string{tools.GroupBase},
			Backend:    "mcp:" + s.name,
		},
		Run: func(ctx context.Context, args json.RawMessage) tools.Result {
			return m.call(ctx, s, remote, args, timeout)
		},
	}
}

// call runs one tool on s, starting the server if it is not running.
func (m *Manager) call(ctx context.Context, s *server, tool string, args json.RawMessage, timeout time.Duration) tools.Result {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cs, err := m.session(ctx, s)
	if err != nil {
		return tools.Fail(fmt.Sprintf("%v. The server is unavailable; use another tool or tell the user to check the MCP configuration.", err))
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return tools.Fail(fmt.Sprintf("MCP server %s: %s timed out after %s; try a smaller request or another tool", s.name, tool, timeout))
		}
		if ctx.Err() != nil {
			return tools.Fail("interrupted")
		}
		var wire *jsonrpc.Error
		if errors.As(err, &wire) {
			return tools.Fail(fmt.Sprintf("MCP server %s refused %s: %s; check the arguments against the tool's schema", s.name, tool, wire.Message))
		}
		m.fail(s, cs, fmt.Errorf("MCP server %s stopped: %w", s.name, err))
		return tools.Fail(fmt.Sprintf("MCP server %s stopped during %s (%v); it will be started again on the next call", s.name, tool, err))
	}
	text := resultText(res)
	if res.IsError {
		return tools.Fail(text)
	}
	return tools.OK(text)
}
