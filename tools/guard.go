package tools

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Guard adds the executor's resilience rules (SPEC §4.5): retries for
// transient errors of idempotent tools, a circuit breaker per tool and a
// per-session rate limit. Set it on Executor.Guard; nil keeps the plain
// behaviour. Safe for concurrent use.
type Guard struct {
	// Now is the clock (time.Now when nil); tests pass a fake one.
	Now func() time.Time
	// Sleep waits between retries (a context-aware sleep when nil).
	Sleep func(ctx context.Context, d time.Duration)
	// BreakAfter consecutive failures open a tool's breaker for Cooldown
	// (defaults 5 and 60 s).
	BreakAfter int
	Cooldown   time.Duration
	// RatePerMinute caps calls per minute for the session (default 60;
	// negative disables).
	RatePerMinute int
	// Observe, when set, is told about every call that ran.
	Observe func(spec Spec, res Result, d time.Duration, attempts int)
	// RepeatWindow is how long a successful write call answers the same
	// call (same tool, same normalised arguments) with its first result
	// instead of writing again (DefaultRepeatWindow when 0; negative
	// disables). See idempotency.go.
	RepeatWindow time.Duration

	mu     sync.Mutex
	fails  map[string]int
	openTo map[string]time.Time
	recent []time.Time
	last   *lastWrite
}

func (g *Guard) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

// admit refuses a call whose breaker is open or that exceeds the rate.
func (g *Guard) admit(spec Spec) (Result, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if until, ok := g.openTo[spec.Name]; ok {
		if now.Before(until) {
			return Fail(fmt.Sprintf("%s is unavailable for another %s after %d consecutive failures; use another tool or go on without it",
				spec.Name, until.Sub(now).Round(time.Second), g.breakAfter())), false
		}
		delete(g.openTo, spec.Name)
		g.fails[spec.Name] = g.breakAfter() - 1 // half-open: one more failure reopens it
	}
	limit := g.RatePerMinute
	if limit == 0 {
		limit = 60
	}
	if limit > 0 {
		cut := 0
		for cut < len(g.recent) && now.Sub(g.recent[cut]) >= time.Minute {
			cut++
		}
		g.recent = g.recent[cut:]
		if len(g.recent) >= limit {
			wait := time.Minute - now.Sub(g.recent[0])
			return Fail(fmt.Sprintf("rate limit: %d tool calls in the last minute (limit %d); wait %s or do more per call", len(g.recent), limit, wait.Round(time.Second))), false
		}
		g.recent = append(g.recent, now)
	}
	return Result{}, true
}

func (g *Guard) breakAfter() int {
	if g.BreakAfter > 0 {
		return g.BreakAfter
	}
	return 5
}

// run carries out the call with retries and updates the breaker.
func (g *Guard) run(ctx context.Context, t Tool, args []byte) Result {
	if res, ok := g.repeated(t.Spec, args); ok {
		return res
	}
	start := g.now()
	attempts := 0
	var res Result
	for {
		attempts++
		res = runSafely(ctx, t, args)
		delay, again := retryDelay(t.Spec, res, attempts)
		if !again || ctx.Err() != nil {
			break
		}
		g.sleep(ctx, delay)
	}
	g.mu.Lock()
	if g.fails == nil {
		g.fails, g.openTo = map[string]int{}, map[string]time.Time{}
	}
	if res.Success {
		g.fails[t.Spec.Name] = 0
	} else if g.fails[t.Spec.Name]++; g.fails[t.Spec.Name] >= g.breakAfter() {
		cool := g.Cooldown
		if cool <= 0 {
			cool = time.Minute
		}
		g.openTo[t.Spec.Name] = g.now().Add(cool)
		g.fails[t.Spec.Name] = 0
		res.Error += fmt.Sprintf(" (%s failed %d times in a row and is now unavailable for %s)", t.Spec.Name, g.breakAfter(), cool)
	}
	g.mu.Unlock()
	g.remember(t.Spec, args, res)
	if g.Observe != nil {
		g.Observe(t.Spec, res, g.now().Sub(start), attempts)
	}
	return res
}

func (g *Guard) sleep(ctx context.Context, d time.Duration) {
	if g.Sleep != nil {
		g.Sleep(ctx, d)
		return
	}
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}

// retryDelay says whether a failed result is worth another attempt, and
// after how long: only idempotent tools, only transient errors — a
// connection timeout once after 200 ms, a 5xx twice with backoff.
func retryDelay(spec Spec, res Result, attempts int) (time.Duration, bool) {
	if res.Success || !spec.Idempotent {
		return 0, false
	}
	msg := strings.ToLower(res.Error)
	switch {
	case isServerError(msg) && attempts <= 2:
		return time.Duration(attempts) * 500 * time.Millisecond, true
	case (strings.Contains(msg, "connection refused") || strings.Contains(msg, "connection reset") ||
		strings.Contains(msg, "i/o timeout") || strings.Contains(msg, "connection timed out")) && attempts == 1:
		return 200 * time.Millisecond, true
	}
	return 0, false
}

func isServerError(msg string) bool {
	for _, code := range []string{"500", "502", "503", "504"} {
		if strings.Contains(msg, "status "+code) || strings.Contains(msg, "http "+code) || strings.Contains(msg, code+" ") && strings.Contains(msg, "server") {
			return true
		}
	}
	return false
}
