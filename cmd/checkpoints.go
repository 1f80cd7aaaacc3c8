package cmd

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/app"
	"github.com/reach-agent/reach/config"
)

func newCheckpointsCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "checkpoints",
		Short: "List the checkpoints reach took before changing files, most recent first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := f.Getwd()
			if err != nil {
				return fmt.Errorf("find the working directory: %w", err)
			}
			return app.ListCheckpoints(cmd.Context(), f.IO.Out, dir, time.Now())
		},
	}
}

func newUndoCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "undo [N]",
		Short: "Restore the files to checkpoint N (default 1, the most recent; see reach checkpoints)",
		Long: `Restore the project's files to checkpoint N (1 is the most recent): files it recorded are
written back byte for byte, including deleted and untracked ones; files created after it are
removed; files ignored by git are left alone. The state before the undo is saved as a new
checkpoint first, so "reach undo" again brings it back.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			n := 1
			if len(args) == 1 {
				v, err := strconv.Atoi(args[0])
				if err != nil || v < 1 {
					return &config.UsageError{Msg: fmt.Sprintf("undo: N must be a checkpoint number (1, 2, …), got %q; see reach checkpoints", args[0])}
				}
				n = v
			}
			dir, err := f.Getwd()
			if err != nil {
				return fmt.Errorf("find the working directory: %w", err)
			}
			return app.Undo(cmd.Context(), f.IO.Out, dir, n)
		},
	}
}
