package cmd

import (
	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/app"
)

func newToolsCmd(f *Factory, g *global, code *int) *cobra.Command {
	tools := &cobra.Command{
		Use:   "tools",
		Short: "List the registered tools or run one",
	}
	tools.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "Every registered tool: name, backend, side effect, summary",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, dir, err := g.load(f)
			if err != nil {
				return err
			}
			return app.ListTools(f.IO, cfg, dir)
		},
	})
	tools.AddCommand(&cobra.Command{
		Use:   "call NAME 'JSON'",
		Short: "Run one tool in the current directory and print its JSON result (exit 0 ran, 1 tool error, 2 bad call)",
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, dir, err := g.load(f)
			if err != nil {
				return err
			}
			raw := "{}"
			if len(args) == 2 {
				raw = args[1]
			}
			*code = app.CallTool(cmd.Context(), f.IO, cfg, dir, args[0], raw)
			return nil
		},
	})
	tools.AddCommand(newToolsSearchCmd(f, g))
	tools.AddCommand(newToolsEvalCmd(f, g))
	tools.AddCommand(newToolsStatsCmd(f, g))
	return tools
}
