package tools

import (
	"context"
	"testing"
)

func TestExecutorAuditHook(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		gate         Gate
		call         Call
		wantRan      bool
		wantDecision bool // the gate was asked
		wantAllow    bool
		wantSpec     string
	}{
		{"ran", denyGate{}, Call{Name: "ok", Arguments: `{"n":2}`}, true, true, true, "ok"},
		{"denied", denyGate{reason: "no"}, Call{Name: "ok", Arguments: `{"n":2}`}, false, true, false, "ok"},
		{"invalid arguments", denyGate{}, Call{Name: "ok", Arguments: `{"n":0}`}, false, false, false, "ok"},
		{"unknown tool", denyGate{}, Call{Name: "nope"}, false, false, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []CallRecord
			e := &Executor{Registry: testRegistry(t), Gate: tc.gate, Audit: func(_ context.Context, rec CallRecord) { got = append(got, rec) }}
			res := e.Execute(context.Background(), tc.call, []string{"ok"})
			if len(got) != 1 {
				t.Fatalf("audit told %d times, want 1", len(got))
			}
			rec := got[0]
			if rec.Ran != tc.wantRan || rec.Spec.Name != tc.wantSpec || rec.Call.Name != tc.call.Name {
				t.Errorf("record = ran %v spec %q call %q", rec.Ran, rec.Spec.Name, rec.Call.Name)
			}
			if (rec.Decision != nil) != tc.wantDecision || (rec.Decision != nil && rec.Decision.Allow != tc.wantAllow) {
				t.Errorf("decision = %+v", rec.Decision)
			}
			if rec.Result != res {
				t.Errorf("recorded result %+v, returned %+v", rec.Result, res)
			}
			if rec.Ran && rec.Duration <= 0 {
				t.Errorf("a call that ran has no duration")
			}
		})
	}
}
