package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/version"
)

func newVersionCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(f.IO.Out, version.String())
			return err
		},
	}
}
