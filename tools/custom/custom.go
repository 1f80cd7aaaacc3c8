// Package custom loads command-line tools from a manifest: each reads its
// arguments as JSON on stdin and answers one JSON object on stdout.
package custom

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/shell"
)

// Entry is one tool of the manifest.
type Entry struct {
	Name       string         `json:"name" toml:"name"`
	Summary    string         `json:"summary" toml:"summary"`
	Parameters map[string]any `json:"parameters" toml:"parameters"`
	// Command runs with bash -c in the project root.
	Command    string   `json:"command" toml:"command"`
	SideEffect string   `json:"side_effect" toml:"side_effect"`
	Idempotent bool     `json:"idempotent" toml:"idempotent"`
	Timeout    float64  `json:"timeout" toml:"timeout"` // seconds, default 60
	Scopes     []string `json:"scopes" toml:"scopes"`
	Version    string   `json:"version" toml:"version"`
}

// Manifest is a custom tools file.
type Manifest struct {
	Tools []Entry `json:"tools" toml:"tools"`
}

var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`) })

// Load reads a manifest (TOML when the file ends in .toml, JSON otherwise)
// and checks every entry.
func Load(path string) (Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Manifest{}, fmt.Errorf("read custom tools: %w", err)
	}
	var m Manifest
	if strings.EqualFold(filepath.Ext(path), ".toml") {
		if _, err := toml.Decode(string(data), &m); err != nil {
			return Manifest{}, fmt.Errorf("%s: not valid TOML: %w", path, err)
		}
	} else if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("%s: not valid JSON: %w (want {\"tools\": [{\"name\", \"summary\", \"parameters\", \"command\"}]})", path, err)
	}
	seen := map[string]bool{}
	for i, e := range m.Tools {
		where := fmt.Sprintf("%s: tool %d (%s)", path, i+1, e.Name)
		switch {
		case !validName().MatchString(e.Name):
			return Manifest{}, fmt.Errorf("%s: name must start with a letter and use only letters, digits, _ and - (64 at most)", where)
		case seen[e.Name]:
			return Manifest{}, fmt.Errorf("%s: name used twice", where)
		case strings.TrimSpace(e.Summary) == "":
			return Manifest{}, fmt.Errorf("%s: give a summary saying what the tool is for and when to use it", where)
		case strings.TrimSpace(e.Command) == "":
			return Manifest{}, fmt.Errorf("%s: give the command to run", where)
		case e.Timeout < 0:
			return Manifest{}, fmt.Errorf("%s: timeout must be positive seconds", where)
		}
		switch tools.SideEffect(e.SideEffect) {
		case "", tools.Read, tools.Write, tools.Exec, tools.Network:
		default:
			return Manifest{}, fmt.Errorf("%s: side_effect %q: use read, write, exec or network", where, e.SideEffect)
		}
		seen[e.Name] = true
	}
	return m, nil
}

// Build turns the manifest into registry tools whose commands run in dir.
func (m Manifest) Build(dir string) ([]tools.Tool, error) {
	out := make([]tools.Tool, 0, len(m.Tools))
	for _, e := range m.Tools {
		params := e.Parameters
		if params == nil {
			params = map[string]any{"type": "object"}
		}
		raw, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("custom tool %s: parameters: %w", e.Name, err)
		}
		side := tools.SideEffect(e.SideEffect)
		if side == "" {
			side = tools.Exec
		}
		timeout := 60 * time.Second
		if e.Timeout > 0 {
			timeout = time.Duration(e.Timeout * float64(time.Second))
		}
		out = append(out, tools.Tool{
			Spec: tools.Spec{
				Name: e.Name, Summary: e.Summary, Parameters: raw, SideEffect: side, Idempotent: e.Idempotent,
				Timeout: timeout, Scopes: e.Scopes, Groups: []string{tools.GroupBase}, Backend: "custom", Version: e.Version,
			},
			Run: runner{name: e.Name, command: e.Command, dir: dir}.run,
		})
	}
	return out, nil
}

type runner struct {
	name, command, dir string
}

// answer is what a custom tool prints.
type answer struct {
	Success    *bool  `json:"success"`
	CanRetry   bool   `json:"can_retry"`
	ReturnCode *int   `json:"return_code"`
	Output     string `json:"output"`
}

func (r runner) run(ctx context.Context, args json.RawMessage) tools.Result {
	cmd := exec.CommandContext(ctx, "bash", "-c", r.command)
	cmd.Dir = r.dir
	cmd.Stdin = bytes.NewReader(args)
	shell.KillGroupOnCancel(cmd)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// stdout is the JSON answer; stderr is the tool's progress, shown live.
	var live *shell.LiveWriter
	if report := tools.ProgressFrom(ctx); report != nil {
		live = shell.NewLiveWriter(report, 0, 0)
		cmd.Stderr = io.MultiWriter(&stderr, live)
	}
	err := cmd.Run()
	if live != nil {
		live.Close() // Run has copied all of stderr
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return tools.Fail(fmt.Sprintf("custom tool %s timed out and was stopped", r.name))
		}
		return tools.Fail("interrupted")
	}
	var a answer
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(stdout.Bytes())))
	if derr := dec.Decode(&a); derr != nil || a.Success == nil {
		msg := fmt.Sprintf("custom tool %s did not answer with a JSON object {\"success\", \"can_retry\", \"return_code\", \"output\"}", r.name)
		if err != nil {
			msg += fmt.Sprintf(" (%v)", err)
		}
		if s := clip(stdout.String()); s != "" {
			msg += "; stdout: " + s
		}
		if s := clip(stderr.String()); s != "" {
			msg += "; stderr: " + s
		}
		return tools.Fail(msg + ". This is a fault of the tool, not of your arguments: do not retry it unchanged.")
	}
	res := tools.Result{Success: *a.Success, ReturnCode: a.ReturnCode}
	if res.Success {
		res.Output = a.Output
		return res
	}
	res.Error = a.Output
	if res.Error == "" {
		res.Error = fmt.Sprintf("custom tool %s failed without a message", r.name)
	}
	if a.CanRetry {
		res.Error += " (the tool says a retry may succeed)"
	}
	return res
}

// clip keeps the last 300 bytes of s, trimmed.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	return s
}
