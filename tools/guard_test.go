package tools

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// scripted is a tool that answers from a list, counting its calls.
func scripted(name string, idempotent bool, answers ...Result) (Tool, *int) {
	n := 0
	var mu sync.Mutex
	return Tool{Spec: Spec{Name: name, Summary: "s", Parameters: json.RawMessage(`{"type":"object"}`), SideEffect: Read, Idempotent: idempotent},
		Run: func(context.Context, json.RawMessage) Result {
			mu.Lock()
			defer mu.Unlock()
			r := answers[min(n, len(answers)-1)]
			n++
			return r
		}}, &n
}

func guarded(t *testing.T, g *Guard, ts ...Tool) (*Executor, []string) {
	t.Helper()
	reg := NewRegistry()
	if err := reg.Register(ts...); err != nil {
		t.Fatal(err)
	}
	return &Executor{Registry: reg, Guard: g}, Names(reg.Specs())
}

func TestGuardRetries(t *testing.T) {
	tests := []struct {
		name       string
		idempotent bool
		answers    []Result
		wantCalls  int
		wantOK     bool
	}{
		{"connection timeout retried once", true, []Result{Fail("dial: i/o timeout"), OK("fine")}, 2, true},
		{"connection timeout not retried twice", true, []Result{Fail("dial: i/o timeout"), Fail("dial: i/o timeout"), OK("late")}, 2, false},
		{"5xx retried twice", true, []Result{Fail("status 503"), Fail("status 502"), OK("fine")}, 3, true},
		{"5xx gives up after two retries", true, []Result{Fail("status 500")}, 3, false},
		{"not idempotent: never retried", false, []Result{Fail("status 503"), OK("fine")}, 1, false},
		{"business error: never retried", true, []Result{Fail("no such issue #12"), OK("fine")}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var slept []time.Duration
			g := &Guard{Sleep: func(_ context.Context, d time.Duration) { slept = append(slept, d) }}
			tool, calls := scripted("net", tt.idempotent, tt.answers...)
			ex, names := guarded(t, g, tool)
			res := ex.Execute(context.Background(), Call{Name: "net", Arguments: "{}"}, names)
			if *calls != tt.wantCalls || res.Success != tt.wantOK {
				t.Errorf("calls = %d, success = %v (%+v); want %d, %v", *calls, res.Success, res, tt.wantCalls, tt.wantOK)
			}
			if len(slept) != tt.wantCalls-1 {
				t.Errorf("slept %v, want %d waits", slept, tt.wantCalls-1)
			}
		})
	}
}

func TestGuardBreakerWithFakeClock(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	g := &Guard{Now: clock.Now, RatePerMinute: -1}
	tool, calls := scripted("flaky", false, Fail("boom"))
	ex, names := guarded(t, g, tool)
	exec := func() Result { return ex.Execute(context.Background(), Call{Name: "flaky", Arguments: "{}"}, names) }
	for i := 0; i < 5; i++ {
		exec()
	}
	if *calls != 5 {
		t.Fatalf("calls = %d, want 5", *calls)
	}
	res := exec()
	if *calls != 5 || !strings.Contains(res.Error, "unavailable for another 1m0s") {
		t.Fatalf("sixth call ran or was not explained: calls %d, %+v", *calls, res)
	}
	clock.Advance(59 * time.Second)
	if exec(); *calls != 5 {
		t.Fatal("breaker closed before its cooldown")
	}
	clock.Advance(2 * time.Second)
	if exec(); *calls != 6 {
		t.Fatal("breaker still open after its cooldown")
	}
	if res := exec(); *calls != 6 || !strings.Contains(res.Error, "unavailable") {
		t.Fatalf("a failure right after the cooldown did not reopen the breaker: %+v", res)
	}
}

func TestGuardRateLimitWithFakeClock(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	g := &Guard{Now: clock.Now, RatePerMinute: 3}
	tool, calls := scripted("ok", true, OK("x"))
	ex, names := guarded(t, g, tool)
	exec := func() Result { return ex.Execute(context.Background(), Call{Name: "ok", Arguments: "{}"}, names) }
	for i := 0; i < 3; i++ {
		exec()
		clock.Advance(10 * time.Second)
	}
	if res := exec(); *calls != 3 || !strings.Contains(res.Error, "rate limit") {
		t.Fatalf("fourth call within a minute: calls %d, %+v", *calls, res)
	}
	clock.Advance(31 * time.Second) // the first call is now more than a minute old
	if res := exec(); !res.Success || *calls != 4 {
		t.Fatalf("call after the window: calls %d, %+v", *calls, res)
	}
}
