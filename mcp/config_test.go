package mcp

import (
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name, doc, wantErr string
		servers            []string
	}{
		{"stdio and http", `{"mcpServers":{"fs":{"command":"npx","args":["x"]},"web":{"url":"http://127.0.0.1:1/mcp"},"off":{"command":"x","disabled":true}}}`, "", []string{"fs", "web"}},
		{"empty", `{}`, "", nil},
		{"not json", `{`, "not valid JSON", nil},
		{"no command or url", `{"mcpServers":{"a":{}}}`, `give "command"`, nil},
		{"bad url", `{"mcpServers":{"a":{"url":"ftp://x"}}}`, "must start with http", nil},
		{"double underscore", `{"mcpServers":{"a__b":{"command":"x"}}}`, `must not contain "__"`, nil},
		{"bad name", `{"mcpServers":{"a b":{"command":"x"}}}`, "use only letters", nil},
		{"unknown type", `{"mcpServers":{"a":{"type":"sse","command":"x"}}}`, "unknown type", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig("mcp.json", []byte(tt.doc))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(c.Names(), ","); got != strings.Join(tt.servers, ",") {
				t.Errorf("servers = %q, want %q", got, tt.servers)
			}
		})
	}
}

func TestToolName(t *testing.T) {
	tests := []struct{ server, tool, want string }{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"fs", "read.file", "mcp__fs__read_file"},
		{"s", strings.Repeat("x", 80), ("mcp__s__" + strings.Repeat("x", 80))[:64]},
	}
	for _, tt := range tests {
		if got := ToolName(tt.server, tt.tool); got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
}
