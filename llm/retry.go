package llm

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how often and how long to wait between attempts of one
// turn. The zero value is usable: 6 attempts, exponential backoff from 1 s
// capped at 30 s with full jitter, Retry-After honoured up to 60 s, real
// sleeping and the real clock.
type RetryPolicy struct {
	// MaxAttempts counts every try, the first one included (default 6).
	MaxAttempts int
	// Base is the backoff before the second attempt; it doubles after
	// each failure (default 1 s).
	Base time.Duration
	// Max caps the backoff (default 30 s).
	Max time.Duration
	// MaxRetryAfter caps a provider's Retry-After (default 60 s).
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx is done (default: a timer and ctx).
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter maps a backoff ceiling to the delay actually used (default:
	// uniformly random in [0, d], "full jitter").
	Jitter func(d time.Duration) time.Duration
	// Now tells the time, to read Retry-After given as an HTTP date
	// (default time.Now).
	Now func() time.Time
}

// withDefaults fills the zero fields.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 6
	}
	if p.Base <= 0 {
		p.Base = time.Second
	}
	if p.Max <= 0 {
		p.Max = 30 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 60 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = sleepContext
	}
	if p.Jitter == nil {
		p.Jitter = fullJitter
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	return p
}

// Delay is the wait after the given failed attempt (1-based). A usable
// Retry-After header wins over the computed backoff, capped at
// MaxRetryAfter.
func (p RetryPolicy) Delay(attempt int, retryAfter string) time.Duration {
	p = p.withDefaults()
	if d, ok := parseRetryAfter(retryAfter, p.Now()); ok {
		return min(d, p.MaxRetryAfter)
	}
	ceiling := p.Base
	for i := 1; i < attempt && ceiling < p.Max; i++ {
		ceiling *= 2
	}
	return p.Jitter(min(ceiling, p.Max))
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

func fullJitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return rand.N(d + 1)
}

func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
