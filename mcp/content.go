package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultText converts a tool result into text for the model: text parts
// as they are, other parts described in one line, structured content as
// JSON when there is nothing else.
func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s %s]", c.Name, c.URI))
		case *sdk.EmbeddedResource:
			if r := c.Resource; r != nil {
				if r.Text != "" {
					parts = append(parts, r.Text)
				} else {
					parts = append(parts, fmt.Sprintf("[resource %s, %s, %d bytes]", r.URI, r.MIMEType, len(r.Blob)))
				}
			}
		default:
			if b, err := json.Marshal(c); err == nil {
				parts = append(parts, string(b))
			}
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

// headerTransport adds configured headers to every request.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

// expandAll expands $VAR and ${VAR} in values, so secrets can stay in the
// environment instead of the configuration file.
func expandAll(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = os.ExpandEnv(v)
	}
	return out
}
