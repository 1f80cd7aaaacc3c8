package cmd

import (
	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/app"
)

// newAuditCmd is `reach audit [SESSION]`.
func newAuditCmd(f *Factory, g *global) *cobra.Command {
	return &cobra.Command{
		Use:   "audit [SESSION]",
		Short: "Print the audit log of a session (default: the latest): every tool call, its decision and result",
		Long: `Print the audit log of a session: one entry per tool call with the phase, the tool, the
approval decision and the rule behind it, the result, duration and size, the arguments (secrets
redacted) and, when tool retrieval ran, the offered candidates with their scores.

The raw log is JSON lines in <project state dir>/audit/<SESSION>.jsonl.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, _, err := g.load(f)
			if err != nil {
				return err
			}
			session := ""
			if len(args) == 1 {
				session = args[0]
			}
			return app.ShowAudit(f.IO, cfg, session)
		},
	}
}
