package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// counting is a tool with side effect se that counts its runs and can be
// told to fail.
func counting(name string, se SideEffect, fail bool) (Tool, *int) {
	n := 0
	return Tool{Spec: Spec{Name: name, Summary: "s", Parameters: json.RawMessage(`{"type":"object"}`), SideEffect: se},
		Run: func(_ context.Context, args json.RawMessage) Result {
			n++
			if fail {
				return Fail("disk full")
			}
			return OK("wrote " + string(args))
		}}, &n
}

func TestGuardWriteRepeats(t *testing.T) {
	type step struct {
		tool, args string
		wait       time.Duration
	}
	tests := []struct {
		name      string
		window    time.Duration
		failWrite bool
		steps     []step
		wantRuns  int // runs of the write tool
		wantNote  bool
	}{
		{"same call twice: written once", 0, false, []step{{"write", `{"path":"a","text":"x"}`, 0}, {"write", `{"path":"a","text":"x"}`, time.Second}}, 1, true},
		{"spacing and key order do not matter", 0, false, []step{{"write", `{"path":"a","text":"x"}`, 0}, {"write", ` { "text" : "x", "path":"a" }`, 0}}, 1, true},
		{"after the window: written again", 0, false, []step{{"write", `{"path":"a"}`, 0}, {"write", `{"path":"a"}`, 11 * time.Second}}, 2, false},
		{"other arguments: written", 0, false, []step{{"write", `{"path":"a"}`, 0}, {"write", `{"path":"b"}`, 0}}, 2, false},
		{"A, B, A: the state changed, A is written again", 0, false, []step{{"write", `{"t":"A"}`, 0}, {"write", `{"t":"B"}`, 0}, {"write", `{"t":"A"}`, 0}}, 3, false},
		{"a command in between: written again", 0, false, []step{{"write", `{"p":1}`, 0}, {"shell", `{}`, 0}, {"write", `{"p":1}`, 0}}, 2, false},
		{"a read in between changes nothing", 0, false, []step{{"write", `{"p":1}`, 0}, {"read", `{}`, 0}, {"write", `{"p":1}`, 0}}, 1, true},
		{"a failed write is tried again", 0, true, []step{{"write", `{"p":1}`, 0}, {"write", `{"p":1}`, 0}}, 2, false},
		{"turned off", -1, false, []step{{"write", `{"p":1}`, 0}, {"write", `{"p":1}`, 0}}, 2, false},
		{"longer window", time.Minute, false, []step{{"write", `{"p":1}`, 0}, {"write", `{"p":1}`, 30 * time.Second}}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{t: time.Unix(1000, 0)}
			w, writes := counting("write", Write, tt.failWrite)
			sh, _ := counting("shell", Exec, false)
			rd, _ := counting("read", Read, false)
			ex, names := guarded(t, &Guard{Now: clock.Now, RepeatWindow: tt.window}, w, sh, rd)
			var last Result
			for _, s := range tt.steps {
				clock.Advance(s.wait)
				res := ex.Execute(context.Background(), Call{ID: "1", Name: s.tool, Arguments: s.args}, names)
				if s.tool == "write" {
					last = res
				}
			}
			if *writes != tt.wantRuns {
				t.Errorf("write ran %d times, want %d", *writes, tt.wantRuns)
			}
			note := strings.Contains(last.Output, "nothing was written again")
			if note != tt.wantNote {
				t.Errorf("last write result %+v: note=%v, want %v", last, note, tt.wantNote)
			}
			if tt.wantNote && (!last.Success || !strings.HasPrefix(last.Output, "wrote ")) {
				t.Errorf("a repeat should return the first result, got %+v", last)
			}
		})
	}
}

func TestRepeatKey(t *testing.T) {
	if repeatKey("w", json.RawMessage(`{"a":1,"b":[1,2]}`)) != repeatKey("w", json.RawMessage(`{"b":[1, 2],"a":1}`)) {
		t.Error("same value, different spelling: keys differ")
	}
	if repeatKey("w", json.RawMessage(`{"a":1}`)) == repeatKey("v", json.RawMessage(`{"a":1}`)) {
		t.Error("different tools share a key")
	}
	if repeatKey("w", json.RawMessage(`{"a":1.0}`)) == repeatKey("w", json.RawMessage(`{"a":1.5}`)) {
		t.Error("different numbers share a key")
	}
}
