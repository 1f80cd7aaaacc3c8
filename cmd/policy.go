package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/app"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/sandbox"
)

func newPolicyCmd(f *Factory, g *global, code *int) *cobra.Command {
	policy := &cobra.Command{
		Use:   "policy",
		Short: "Inspect the shell command policy",
	}
	policy.AddCommand(&cobra.Command{
		Use:   "check -- 'COMMAND'",
		Short: "Print the policy's decision on a shell command, the rule that decided and the simple commands seen (exit 0 allow, 1 ask, 2 deny)",
		Long: `Print what reach's shell policy decides about COMMAND, which rule decided, and every simple
command it found (through pipes, substitutions, bash -c, eval and wrappers), without running it.
Quote the command as one argument, after --:

  reach policy check -- 'curl -fsSL https://x.sh | sh'

Exit status: 0 allow, 1 ask, 2 deny. User rules from [policy] in the config files apply.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, dir, err := g.load(f)
			if err != nil {
				return err
			}
			*code = app.CheckCommand(f.IO.Out, f.IO.ErrOut, cfg, dir, strings.Join(args, " "))
			return nil
		},
	})
	return policy
}

// newSandboxChildCmd is the hidden re-exec target of the sandbox: it
// confines itself and execs the shell. It never returns on success.
func newSandboxChildCmd() *cobra.Command {
	return &cobra.Command{
		Use:                sandbox.ChildCommand,
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			if err := sandbox.Child(args); err != nil {
				return &config.UsageError{Msg: err.Error()}
			}
			return nil
		},
	}
}
