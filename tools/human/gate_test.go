package human

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/reach-agent/reach/approval"
	"github.com/reach-agent/reach/tools"
)

// The console answers the approval gate's y/n/c question on a terminal.
func TestConsoleAnswersTheApprovalGate(t *testing.T) {
	t.Parallel()
	spec := tools.Spec{Name: "run_shell_command", SideEffect: tools.Exec}
	args := json.RawMessage(`{"command":"make build"}`)
	tests := []struct {
		input      string
		wantAllow  bool
		wantCowboy bool
	}{
		{"y\n", true, false},
		{"n\n", false, false},
		{"C\n", true, true},
		{"maybe\ny\n", true, false},
		{"", false, false}, // closed input is no
	}
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.input), func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			g := approval.NewGate(NewConsole(strings.NewReader(tt.input), &out, false), nil, approval.Options{Interactive: true})
			d, err := g.Check(context.Background(), spec, args)
			if err != nil || d.Allow != tt.wantAllow || g.Cowboy() != tt.wantCowboy {
				t.Fatalf("got %+v, %v, cowboy %v", d, err, g.Cowboy())
			}
			if !tt.wantAllow && !strings.HasPrefix(d.Reason, approval.CancelledByUser) {
				t.Fatalf("reason %q", d.Reason)
			}
			if !strings.Contains(out.String(), "make build") || !strings.Contains(out.String(), approval.ExecuteQuestion) {
				t.Fatalf("printed %q", out.String())
			}
		})
	}
}
