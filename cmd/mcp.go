package cmd

import (
	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/app"
)

func newMCPCmd(f *Factory, g *global) *cobra.Command {
	mcp := &cobra.Command{
		Use:   "mcp",
		Short: "Model Context Protocol: serve reach's tools to other agents and editors",
	}
	mcp.AddCommand(&cobra.Command{
		Use:   "serve",
		Short: "Serve reach's project tools (search, find, tree, read, edit, shell) over MCP on stdio",
		Long: `Serve reach's project tools over MCP (newline-delimited JSON-RPC on stdin/stdout).

The tools run in the current directory under the same policy, sandbox and checkpoints as
an agent run. There is no terminal to ask for approval, so shell commands that would ask are
refused unless --cowboy-mode is given. Example client configuration:

  {"mcpServers": {"reach": {"command": "reach", "args": ["mcp", "serve"]}}}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, dir, err := g.load(f)
			if err != nil {
				return err
			}
			return app.ServeMCP(cmd.Context(), f.IO, cfg, dir)
		},
	})
	return mcp
}
