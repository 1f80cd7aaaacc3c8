package tools

import (
	"context"
	"testing"
)

func TestProgressInContext(t *testing.T) {
	t.Parallel()
	var got []string
	tests := []struct {
		name   string
		ctx    context.Context
		wantOK bool
	}{
		{"none", context.Background(), false},
		{"nil func carries nothing", WithProgress(context.Background(), nil), false},
		{"set", WithProgress(context.Background(), func(s string) { got = append(got, s) }), true},
		{"survives derived contexts", func() context.Context {
			ctx, cancel := context.WithCancel(WithProgress(context.Background(), func(s string) { got = append(got, s) }))
			t.Cleanup(cancel)
			return ctx
		}(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			p := ProgressFrom(tt.ctx)
			if (p != nil) != tt.wantOK {
				t.Fatalf("ProgressFrom = %v, want set %v", p != nil, tt.wantOK)
			}
			if p != nil {
				p("line\n")
				if len(got) != 1 || got[0] != "line\n" {
					t.Fatalf("reported %q", got)
				}
			}
		})
	}
}
