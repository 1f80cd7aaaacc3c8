package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reach-agent/reach/tools"
)

// Executor runs one tool call; *tools.Executor implements it, with the
// approval gate, policy and checkpoints of a normal run behind it.
type Executor interface {
	Execute(ctx context.Context, call tools.Call, offered []string) tools.Result
}

// NewServer returns an MCP server offering specs, each call going through
// ex exactly as the agent's own calls do.
func NewServer(specs []tools.Spec, ex Executor, version string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "reach", Version: version}, nil)
	names := tools.Names(specs)
	for _, spec := range specs {
		params := spec.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object"}`)
		}
		t := &sdk.Tool{
			Name:        spec.Name,
			Description: spec.Summary,
			InputSchema: params,
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: spec.SideEffect == tools.Read, IdempotentHint: spec.Idempotent},
		}
		name := spec.Name
		s.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args := "{}"
			if req.Params != nil && len(req.Params.Arguments) > 0 {
				args = string(req.Params.Arguments)
			}
			res := ex.Execute(ctx, tools.Call{ID: "mcp", Name: name, Arguments: args}, names)
			return toResult(res), nil
		})
	}
	return s
}

// toResult carries a reach result to an MCP client: the output or error as
// text, the return code appended when there is one.
func toResult(res tools.Result) *sdk.CallToolResult {
	text := res.Output
	if !res.Success {
		text = res.Error
	}
	if res.ReturnCode != nil {
		text += fmt.Sprintf("\nreturn_code: %d", *res.ReturnCode)
	}
	return &sdk.CallToolResult{IsError: !res.Success, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// Serve runs NewServer over newline-delimited JSON-RPC on in and out
// (stdin and stdout) until the client disconnects or ctx ends.
func Serve(ctx context.Context, in io.Reader, out io.Writer, specs []tools.Spec, ex Executor, version string) error {
	t := &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	if err := NewServer(specs, ex, version).Run(ctx, t); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("serve MCP on stdio: %w", err)
	}
	return nil
}

// Served says which tools reach serves over MCP: its own project tools
// (search, find, tree, read, edit, shell), not the ones that only make
// sense inside an agent run (notes, plans) nor other servers' tools.
func Served(s tools.Spec) bool {
	return s.Backend == "builtin" && (s.HasGroup(tools.GroupBase) || s.HasGroup(tools.GroupImplementation))
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
