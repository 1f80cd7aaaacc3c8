package tools

import "context"

// Progress receives a running tool's output as it is produced, for live
// display; the tool's Result stays what the model gets. A tool calls it
// from any of its goroutines but never concurrently with itself, and
// never after its handler has returned.
type Progress func(text string)

type progressKey struct{}

// WithProgress returns ctx carrying report, for the tool call run with
// it. A nil report carries nothing.
func WithProgress(ctx context.Context, report Progress) context.Context {
	if report == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, report)
}

// ProgressFrom returns the Progress ctx carries, or nil when nobody is
// watching (tools then need not stream at all).
func ProgressFrom(ctx context.Context) Progress {
	p, _ := ctx.Value(progressKey{}).(Progress)
	return p
}
