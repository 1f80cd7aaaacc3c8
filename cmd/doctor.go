package cmd

import (
	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/app"
)

func newDoctorCmd(f *Factory, g *global, code *int) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check rg, git, aider, the sandbox, the state dir, the provider and MCP servers (exit 0 when nothing fails)",
		Long: `Check what reach relies on and print one line per check: ok, warn or fail.

Checks: rg and its version (and which search backend ripgrep_search uses), git, aider (with
--use-aider), the OS sandbox (Landlock ABI and network isolation), that the project state dir is
writable, that the provider answers GET /models with the configured key and lists the model, the
expert model, and that each configured MCP server starts. Exit status 0 when nothing failed, 1 otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, dir, err := g.load(f)
			if err != nil {
				return err
			}
			*code = app.RunDoctor(cmd.Context(), f.IO, &app.Doctor{Cfg: cfg, Dir: dir})
			return nil
		},
	}
}
