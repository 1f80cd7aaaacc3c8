// Package mcp connects reach to Model Context Protocol servers: it reads
// the mcpServers configuration, starts stdio and streamable-HTTP servers
// on first use, registers their tools as mcp__<server>__<tool>, and serves
// reach's own tools over MCP stdio.
package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// ServerConfig is one entry of mcpServers, in the format Claude Desktop,
// Cursor and other clients use: command/args/env for a stdio server, or
// url/headers for a streamable-HTTP server.
type ServerConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Type is "stdio" or "http" ("streamable-http" and "streamableHttp"
	// are accepted too); empty means whichever of command or url is set.
	Type string `json:"type,omitempty"`
	// Timeout is a per-call timeout in seconds (default: the manager's).
	Timeout float64 `json:"timeout,omitempty"`
	// Disabled servers are left out.
	Disabled bool `json:"disabled,omitempty"`
}

// Config is a parsed MCP configuration file.
type Config struct {
	Servers map[string]ServerConfig `json:"mcpServers"`
}

// Names returns the enabled server names, sorted.
func (c Config) Names() []string {
	var out []string
	for n, s := range c.Servers {
		if !s.Disabled {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// CallTimeout is the server's own per-call timeout, or def.
func (s ServerConfig) CallTimeout(def time.Duration) time.Duration {
	if s.Timeout > 0 {
		return time.Duration(s.Timeout * float64(time.Second))
	}
	return def
}

// transport is "stdio" or "http".
func (s ServerConfig) transport() string {
	switch strings.ToLower(s.Type) {
	case "stdio":
		return "stdio"
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		return "http"
	}
	if s.URL != "" {
		return "http"
	}
	return "stdio"
}

var serverName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// LoadConfig reads and checks an mcpServers file.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("read MCP config: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig parses an mcpServers document; name is used in errors.
func ParseConfig(name string, data []byte) (Config, error) {
	var c Config
	if err := json.Unmarshal(data, &c); err != nil {
		return Config{}, fmt.Errorf("%s: not valid JSON: %w (want {\"mcpServers\": {\"name\": {\"command\": …}}})", name, err)
	}
	for n, s := range c.Servers {
		switch {
		case !serverName().MatchString(n):
			return Config{}, fmt.Errorf("%s: server name %q: use only letters, digits, _ and -", name, n)
		case strings.Contains(n, "__"):
			return Config{}, fmt.Errorf("%s: server name %q: must not contain \"__\" (it separates server and tool in mcp__server__tool)", name, n)
		case s.Type != "" && s.transport() == "stdio" && !strings.EqualFold(s.Type, "stdio"):
			return Config{}, fmt.Errorf("%s: server %q: unknown type %q (use \"stdio\" or \"http\")", name, n, s.Type)
		case s.transport() == "stdio" && s.Command == "":
			return Config{}, fmt.Errorf("%s: server %q: give \"command\" (stdio) or \"url\" (streamable HTTP)", name, n)
		case s.transport() == "http" && !(strings.HasPrefix(s.URL, "http://") || strings.HasPrefix(s.URL, "https://")):
			return Config{}, fmt.Errorf("%s: server %q: url %q must start with http:// or https://", name, n, s.URL)
		case s.Timeout < 0:
			return Config{}, fmt.Errorf("%s: server %q: timeout must be positive seconds", name, n)
		}
	}
	return c, nil
}

// ToolName is the registry name of a server's tool: mcp__<server>__<tool>,
// with characters the model APIs refuse replaced by _ and cut to 64.
func ToolName(server, tool string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
				return r
			}
			return '_'
		}, s)
	}
	n := "mcp__" + clean(server) + "__" + clean(tool)
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}
