package config

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/url"
	"os"
	"strings"
)

// maxTaskFile caps --msg-file; a task is prose, not a data set.
const maxTaskFile = 1 << 20

// validate checks the resolved values, in the order a user would fix them,
// and reads --msg-file.
func (r *resolver) validate(c *Config) error {
	msgSet := r.labels["message"] != ""
	switch {
	case msgSet && c.MsgFile != "":
		return usagef("--msg-file", "-m and --msg-file cannot be used together: give the task one way")
	case msgSet && strings.TrimSpace(c.Message) == "":
		return usagef("--message", `-m is empty: give the task text, e.g. -m "fix the failing test"`)
	case c.Chat && c.ResearchOnly:
		return usagef("--chat", "--chat cannot be combined with --research-only: drop one of them")
	case c.AutoTest && strings.TrimSpace(c.TestCmd) == "":
		return usagef("--auto-test", `%s needs --test-cmd: give the command that runs the tests, e.g. --test-cmd "go test ./..."`,
			r.label("auto-test"))
	}
	for _, check := range []func(*Config) error{r.checkEndpoints, r.checkEnums, r.checkNumbers, r.checkFiles} {
		if err := check(c); err != nil {
			return err
		}
	}
	return nil
}

func (r *resolver) checkEndpoints(c *Config) error {
	endpoints := []struct {
		e                          *Endpoint
		provFlag, urlFlag, envHint string
	}{
		{&c.Endpoint, "provider", "base-url", "OPENAI_BASE_URL"},
		{&c.Expert, "expert-provider", "expert-base-url", "EXPERT_OPENAI_BASE_URL"},
	}
	for _, ep := range endpoints {
		if _, ok := LookupProvider(ep.e.Provider); !ok {
			return usagef("--"+ep.provFlag, "%s: unknown provider %q: use one of %s",
				r.label(ep.provFlag), ep.e.Provider, providerNames())
		}
		if ep.e.BaseURL == "" {
			return usagef("--"+ep.urlFlag, "--%s %s needs --%s (or %s): the server's URL, e.g. http://127.0.0.1:8080/v1",
				ep.provFlag, ep.e.Provider, ep.urlFlag, ep.envHint)
		}
		if u, err := url.Parse(ep.e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usagef("--"+ep.urlFlag, "%s must be an http or https URL such as http://127.0.0.1:8080/v1 (got %q)",
				r.label(ep.urlFlag), ep.e.BaseURL)
		}
	}
	return nil
}

func (r *resolver) checkEnums(c *Config) error {
	switch c.Sandbox {
	case SandboxReadOnly, SandboxWorkspaceWrite, SandboxOff:
	default:
		return usagef("--sandbox", "%s must be read-only, workspace-write or off (got %q)", r.label("sandbox"), c.Sandbox)
	}
	switch c.OutputFormat {
	case OutputText, OutputJSON, OutputStreamJSON:
	default:
		return usagef("--output-format", "%s must be text, json or stream-json (got %q)", r.label("output-format"), c.OutputFormat)
	}
	level := pick(r, "log-level", func(s *settings) opt[string] { return s.LogLevel }, "warn")
	switch strings.ToLower(level) {
	case "debug":
		c.LogLevel = slog.LevelDebug
	case "info":
		c.LogLevel = slog.LevelInfo
	case "warn":
		c.LogLevel = slog.LevelWarn
	case "error":
		c.LogLevel = slog.LevelError
	default:
		return usagef("--log-level", "%s must be debug, info, warn or error (got %q)", r.label("log-level"), level)
	}
	return nil
}

func (r *resolver) checkNumbers(c *Config) error {
	if t := c.Temperature; t != nil && (math.IsNaN(*t) || *t < 0 || *t > 2) {
		return usagef("--temperature", "%s must be between 0.0 and 2.0 (got %g)", r.label("temperature"), *t)
	}
	if c.MaxTestCmdRetries < 0 {
		return usagef("--max-test-cmd-retries", "%s must be 0 or more (got %d)", r.label("max-test-cmd-retries"), c.MaxTestCmdRetries)
	}
	if c.TestCmdTimeout <= 0 {
		return usagef("--test-cmd-timeout", "%s must be greater than 0 seconds (got %d)",
			r.label("test-cmd-timeout"), int64(c.TestCmdTimeout.Seconds()))
	}
	if c.RecursionLimit <= 0 {
		return usagef("--recursion-limit", "%s must be greater than 0 (got %d)", r.label("recursion-limit"), c.RecursionLimit)
	}
	if m := c.MaxCost; m != nil && !(*m > 0 && !math.IsInf(*m, 1)) {
		return usagef("--max-cost", "%s must be greater than 0 (got %g): give a budget in USD, e.g. --max-cost 2.50",
			r.label("max-cost"), *m)
	}
	if m := c.MaxTokens; m != nil && *m <= 0 {
		return usagef("--max-tokens", "%s must be greater than 0 (got %d)", r.label("max-tokens"), *m)
	}
	return nil
}

// checkFiles reads --msg-file and makes sure the other given paths exist, so
// a typo fails now rather than halfway through a run.
func (r *resolver) checkFiles(c *Config) error {
	if c.MsgFile != "" {
		text, err := readTask(c.MsgFile)
		if err != nil {
			return &UsageError{Flag: "--msg-file", Msg: fmt.Sprintf("--msg-file %s %v", c.MsgFile, err), Err: err}
		}
		c.msgText = text
	}
	for _, p := range []struct{ flag, path string }{
		{"aider-config", c.AiderConfig}, {"custom-tools", c.CustomTools}, {"mcp-config", c.MCPConfig},
	} {
		if p.path == "" {
			continue
		}
		fi, err := os.Stat(p.path)
		switch {
		case err != nil:
			return &UsageError{Flag: "--" + p.flag, Err: err, Msg: fmt.Sprintf("%s: cannot read %s: %v: fix the path",
				r.label(p.flag), p.path, unwrapPath(err))}
		case !fi.Mode().IsRegular():
			return usagef("--"+p.flag, "%s: %s is not a regular file: give the path of the file", r.label(p.flag), p.path)
		}
	}
	return nil
}

// readTask returns the content of a task file; its errors read after the path.
func readTask(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot be read: %w: fix the path", unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTaskFile+1))
	if err != nil {
		return "", fmt.Errorf("cannot be read: %w", unwrapPath(err))
	}
	switch {
	case len(data) > maxTaskFile:
		return "", errors.New("is larger than 1 MiB: put the task in it, not the data; point the model at files instead")
	case strings.TrimSpace(string(data)) == "":
		return "", errors.New(`is empty: write the task in it, or use -m "..."`)
	}
	return string(data), nil
}
