package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reach-agent/reach/app"
	"github.com/reach-agent/reach/config"
)

// Main runs reach with args and returns the process exit code. No error
// reaches the user as a stack trace: each is one line on stderr.
func Main(ctx context.Context, f *Factory, args []string) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	code := app.ExitOK
	root := newRootCmd(f, &code)
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(f.IO.ErrOut, "reach: %s\n", err)
		var ue *config.UsageError
		if errors.As(err, &ue) || isCobraUsage(err) {
			return app.ExitUsage
		}
		return app.ExitCode(err)
	}
	return code
}

// global holds the flags every command shares.
type global struct {
	fs    *pflag.FlagSet
	flags *config.Flags
}

// load reads the configuration for the current directory.
func (g *global) load(f *Factory) (*config.Config, string, error) {
	dir, err := f.Getwd()
	if err != nil {
		return nil, "", fmt.Errorf("find the working directory: %w", err)
	}
	cfg, err := config.Load(g.fs, g.flags, f.Env, config.Paths{ProjectDir: dir, UserConfigFile: config.DefaultUserConfigFile(f.Env)})
	if err != nil {
		return nil, "", err
	}
	return cfg, dir, nil
}

func newRootCmd(f *Factory, code *int) *cobra.Command {
	g := &global{}
	root := &cobra.Command{
		Use:   "reach [flags] -m \"task\"",
		Short: "A terminal coding agent: research, plan, implement, test",
		Long: `reach researches your repository, writes a plan, edits the files and runs the tests.

It talks to any OpenAI-compatible endpoint (OpenAI, OpenRouter, Ollama, llama.cpp, vLLM).
On a terminal it asks before running commands; --cowboy-mode removes the prompts but never the
hard policy. Output is plain text when stdout is not a terminal, or JSON with --output-format.

Exit codes: 0 done, 1 task failed, 2 usage or config error, 3 provider error,
4 a limit was reached, 130 interrupted.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &config.UsageError{Msg: fmt.Sprintf("unexpected argument %q: give the task with -m \"...\" or --msg-file PATH (quote it as one argument)", args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, dir, err := g.load(f)
			if err != nil {
				return err
			}
			*code = app.RunTask(cmd.Context(), app.Task{IO: f.IO, Cfg: cfg, Dir: dir, CommandLine: commandLine(cmd)})
			return nil
		},
	}
	g.fs = root.PersistentFlags()
	g.flags = config.BindFlags(g.fs)
	root.Flags().SortFlags = false
	root.PersistentFlags().SortFlags = false
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &config.UsageError{Msg: err.Error() + " (see reach --help)"}
	})
	root.AddCommand(newVersionCmd(f), newToolsCmd(f, g, code))
	root.AddCommand(newPolicyCmd(f, g, code), newCheckpointsCmd(f), newUndoCmd(f), newSandboxChildCmd())
	root.AddCommand(newSessionsCmd(f, g), newResumeCmd(f, g, code))
	root.AddCommand(newMCPCmd(f, g))
	root.AddCommand(newAuditCmd(f, g))
	root.AddCommand(newDoctorCmd(f, g, code), newCompletionCmd(root))
	return root
}

// isCobraUsage recognises cobra's own argument errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") ||
		strings.Contains(msg, "accepts ") || strings.Contains(msg, "requires at least")
}
