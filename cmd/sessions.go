package cmd

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reach-agent/reach/app"
)

func newSessionsCmd(f *Factory, g *global) *cobra.Command {
	list := func(cmd *cobra.Command, _ []string) error {
		cfg, _, err := g.load(f)
		if err != nil {
			return err
		}
		return app.ListSessions(cmd.Context(), f.IO, cfg)
	}
	sessions := &cobra.Command{
		Use:   "sessions [list|show ID]",
		Short: "Past sessions of this project: task, status, progress, cost",
		Args:  cobra.NoArgs,
		RunE:  list, // bare `reach sessions` lists them
	}
	sessions.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "The project's sessions, newest first",
		Args:  cobra.NoArgs,
		RunE:  list,
	})
	sessions.AddCommand(&cobra.Command{
		Use:   "show ID",
		Short: "One session: task, plan, phases, tool calls, tokens and cost",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, _, err := g.load(f)
			if err != nil {
				return err
			}
			return app.ShowSession(cmd.Context(), f.IO, cfg, args[0])
		},
	})
	return sessions
}

func newResumeCmd(f *Factory, g *global, code *int) *cobra.Command {
	return &cobra.Command{
		Use:   "resume [ID]",
		Short: "Continue a session from its last completed step (default: the latest)",
		Long: `Continue an interrupted session (Ctrl+C, a crash, a budget) from its last completed step:
research, planning and each finished task are not redone. The task and the phase flags are the
stored ones; provider, model and approval flags given here override them.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, dir, err := g.load(f)
			if err != nil {
				return err
			}
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			t := app.Task{IO: f.IO, Cfg: cfg, Dir: dir, CommandLine: commandLine(cmd)}
			c, err := app.ResumeTask(cmd.Context(), t, id, g.fs.Changed)
			*code = c
			return err
		},
	}
}

// commandLine is the command as given, rebuilt from its path and the
// flags that were set, for the session record.
func commandLine(cmd *cobra.Command) string {
	parts := []string{cmd.CommandPath()}
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		v := fl.Value.String()
		if fl.Value.Type() == "bool" {
			parts = append(parts, "--"+fl.Name)
			return
		}
		if strings.ContainsAny(v, " \t\n\"'") || v == "" {
			v = strconv.Quote(v)
		}
		parts = append(parts, "--"+fl.Name+"="+v)
	})
	return strings.Join(parts, " ")
}
