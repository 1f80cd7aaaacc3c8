package policy

import (
	"testing"

	"github.com/reach-agent/reach/approval"
)

// FuzzDecide checks that no input makes the policy panic, that the
// decision is stable, and that an input containing a hard-deny command
// after a separator stays denied.
func FuzzDecide(f *testing.F) {
	for _, tc := range adversarial {
		f.Add(tc.cmd)
	}
	for _, s := range []string{"${x[", "$(( 1 +", "a <<EOF\n$(", "f(){ f; }", "\x00", "'\"`", "${!x*}", "{a,b}{c,d}", "<(<(<(ls)))", "coproc x { ls; }"} {
		f.Add(s)
	}
	p, _ := testPolicy(f, false)
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 4096 {
			return
		}
		first := p.Check(cmd)
		again := p.Check(cmd)
		if first.Verdict != again.Verdict {
			t.Fatalf("%q: unstable verdict %v then %v", cmd, first.Verdict, again.Verdict)
		}
		if first.Verdict.Action == approval.Allow && !first.ReadOnly && first.Verdict.Rule == "read-only" {
			t.Fatalf("%q: allowed as read-only but reported as writing", cmd)
		}
		// Whatever follows a hard-deny command cannot rescue it: the
		// script is denied, or asked when it does not parse at all.
		v := p.Decide("rm -rf /\n" + cmd)
		if v.Action != approval.Deny && v.Rule != "parse-error" {
			t.Fatalf("rm -rf / followed by %q: got %v (%s)", cmd, v.Action, v.Rule)
		}
	})
}
