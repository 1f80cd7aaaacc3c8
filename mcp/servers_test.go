package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as the MCP servers the tests start: with
// REACH_MCP_TEST_SERVER set it serves on stdio instead of running tests.
const serverEnv = "REACH_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	switch os.Getenv(serverEnv) {
	case "":
		os.Exit(m.Run())
	case "sdk":
		if err := newSDKServer(0).Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "big":
		if err := newSDKServer(300).Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "plain":
		plainServer(os.Stdin, os.Stdout)
	case "exit":
		fmt.Fprintln(os.Stderr, "refusing to start")
		os.Exit(2)
	}
	os.Exit(0)
}

// stdioServer is the config entry that starts this binary as server kind.
func stdioServer(t *testing.T, kind string) ServerConfig {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ServerConfig{Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{serverEnv: kind}}
}

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to echo back"`
}

type sleepIn struct {
	Seconds float64 `json:"seconds"`
}

// newSDKServer is a server written with the official SDK: echo, sleep,
// fail, and n generated tools.
func newSDKServer(n int) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "sdk-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back unchanged.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "sleep", Description: "Wait for some seconds."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in sleepIn) (*sdk.CallToolResult, any, error) {
			select {
			case <-time.After(time.Duration(in.Seconds * float64(time.Second))):
			case <-ctx.Done():
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "slept"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "quota exceeded"}}}, nil, nil
		})
	for i := range n {
		sdk.AddTool(s, &sdk.Tool{Name: fmt.Sprintf("tool_%03d", i), Description: fmt.Sprintf("Generated tool number %d about topic%d.", i, i)},
			func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(i)}}}, nil, nil
			})
	}
	return s
}

// plainServer speaks newline-delimited JSON-RPC by hand, like the many
// servers that do not use an SDK: shout upper-cases its text, crash exits
// in the middle of the call.
func plainServer(in *os.File, out *os.File) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue // notifications need no answer
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{
				"protocolVersion": "2025-06-18",
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "plain", "version": "0.1"},
			}
		case "tools/list":
			result = map[string]any{"tools": []any{
				map[string]any{"name": "shout", "description": "Upper-case a text.", "inputSchema": map[string]any{
					"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []string{"text"}}},
				map[string]any{"name": "crash", "description": "Exit in the middle of the call.", "inputSchema": map[string]any{"type": "object"}},
			}}
		case "tools/call":
			var p struct {
				Name      string            `json:"name"`
				Arguments map[string]string `json:"arguments"`
			}
			_ = json.Unmarshal(req.Params, &p)
			switch p.Name {
			case "crash":
				os.Exit(3)
			case "shout":
				result = map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.ToUpper(p.Arguments["text"])}}}
			default:
				_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32602, "message": "unknown tool " + p.Name}})
				continue
			}
		default:
			_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
}
