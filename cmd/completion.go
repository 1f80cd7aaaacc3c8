package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/config"
)

// newCompletionCmd replaces cobra's default completion command so that an
// unknown shell is a usage error (exit 2) instead of help and exit 0.
func newCompletionCmd(root *cobra.Command) *cobra.Command {
	gen := map[string]func(c *cobra.Command) error{
		"bash":       func(c *cobra.Command) error { return root.GenBashCompletionV2(c.OutOrStdout(), true) },
		"zsh":        func(c *cobra.Command) error { return root.GenZshCompletion(c.OutOrStdout()) },
		"fish":       func(c *cobra.Command) error { return root.GenFishCompletion(c.OutOrStdout(), true) },
		"powershell": func(c *cobra.Command) error { return root.GenPowerShellCompletionWithDesc(c.OutOrStdout()) },
	}
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print the shell completion script",
		Long: `Print the completion script for your shell. To load it:

  bash:  source <(reach completion bash)       (or save it under /etc/bash_completion.d/)
  zsh:   reach completion zsh > "${fpath[1]}/_reach"
  fish:  reach completion fish > ~/.config/fish/completions/reach.fish`,
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 || gen[args[0]] == nil {
				return &config.UsageError{Msg: fmt.Sprintf("completion needs one shell: bash, zsh, fish or powershell (got %q)", args)}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error { return gen[args[0]](c) },
	}
}
