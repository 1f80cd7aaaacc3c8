package app

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reach-agent/reach/checkpoint"
	"github.com/reach-agent/reach/workspace"
)

// ListCheckpoints prints the checkpoints of the project in dir, most
// recent first (reach checkpoints).
func ListCheckpoints(ctx context.Context, out io.Writer, dir string, now time.Time) error {
	store, err := openCheckpoints(ctx, dir)
	if err != nil {
		return err
	}
	list, err := store.List(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(out, "No checkpoints yet: reach takes one before each file write and each command that may change files.")
		return nil
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "N\tWHEN\tID\tBEFORE\n")
	for _, c := range list {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", c.N, ago(now, c.Time), short(c.ID), strings.TrimPrefix(c.Reason, "before "))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "(%s) Restore one with: reach undo N\n", store.Kind())
	return nil
}

// Undo restores checkpoint n and says what it restored (reach undo [N]).
func Undo(ctx context.Context, out io.Writer, dir string, n int) error {
	store, err := openCheckpoints(ctx, dir)
	if err != nil {
		return err
	}
	res, err := store.Restore(ctx, n)
	if err != nil {
		return fmt.Errorf("undo: %w", err)
	}
	fmt.Fprintf(out, "Restored checkpoint %d (%s, taken %s).\n", n, res.Checkpoint.Reason, res.Checkpoint.Time.Format(time.DateTime))
	if len(res.Written)+len(res.Deleted) == 0 {
		fmt.Fprintln(out, "The files already matched it; nothing changed.")
	}
	for _, p := range res.Written {
		fmt.Fprintf(out, "  restored  %s\n", p)
	}
	for _, p := range res.Deleted {
		fmt.Fprintf(out, "  removed   %s (created after the checkpoint)\n", p)
	}
	fmt.Fprintln(out, "The state before this undo was saved as checkpoint 1: reach undo brings it back.")
	return nil
}

func openCheckpoints(ctx context.Context, dir string) (*checkpoint.Store, error) {
	root, err := workspace.New(dir)
	if err != nil {
		return nil, err
	}
	return checkpoint.Open(ctx, root.Dir())
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func ago(now, t time.Time) string {
	d := now.Sub(t).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return t.Format(time.DateOnly)
}
