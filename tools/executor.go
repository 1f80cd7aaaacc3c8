package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Call is one tool call as the model sent it.
type Call struct {
	ID        string
	Name      string
	Arguments string
}

// Decision is a gate's verdict on a call.
type Decision struct {
	Allow  bool
	Reason string // told to the model when the call is refused
	Rule   string // which rule decided, for the audit log
}

// Gate decides whether a validated call may run: approval prompts and the
// security policy live behind it. A nil Gate allows everything.
type Gate interface {
	Check(ctx context.Context, spec Spec, args json.RawMessage) (Decision, error)
}

// Executor is the one path every tool call takes: lookup, offer check,
// schema validation, gate, timeout, run, output shaping.
type Executor struct {
	Registry *Registry
	Gate     Gate
	// DefaultTimeout applies when a spec declares none.
	DefaultTimeout time.Duration
	// Guard adds retries, a circuit breaker and a rate limit (guard.go);
	// nil runs each call once.
	Guard *Guard
	// Audit, when set, is told about every call once it is over, refused
	// or run (the audit log and the quality record listen here).
	Audit func(ctx context.Context, rec CallRecord)
}

// CallRecord is what the executor knows about one finished call.
type CallRecord struct {
	Call     Call
	Spec     Spec      // zero when the tool is unknown
	Decision *Decision // the gate's verdict; nil when the gate was not asked
	Ran      bool      // the handler ran; false when the call was refused first
	Start    time.Time
	Duration time.Duration // of the run, retries included; 0 when it did not run
	Result   Result        // as the model gets it
}

// Execute runs call if it names a tool in offered. It never returns an
// error: every failure becomes a Result the model can act on.
func (e *Executor) Execute(ctx context.Context, call Call, offered []string) Result {
	rec := CallRecord{Call: call, Start: time.Now()}
	res := e.execute(ctx, call, offered, &rec)
	if e.Audit != nil {
		rec.Result = res
		e.Audit(ctx, rec)
	}
	return res
}

func (e *Executor) execute(ctx context.Context, call Call, offered []string, rec *CallRecord) Result {
	t, ok := e.Registry.Lookup(call.Name)
	if !ok {
		return Fail(fmt.Sprintf("unknown tool %q. Available tools: %s", call.Name, strings.Join(sorted(offered), ", ")))
	}
	rec.Spec = t.Spec
	if !contains(offered, call.Name) {
		return Fail(fmt.Sprintf("tool %q is not available in this phase. Available tools: %s", call.Name, strings.Join(sorted(offered), ", ")))
	}
	args := json.RawMessage(call.Arguments)
	if strings.TrimSpace(call.Arguments) == "" {
		args = json.RawMessage(`{}`)
	}
	sch, err := e.Registry.schema(call.Name)
	if err != nil {
		return Fail(fmt.Sprintf("%s cannot be called: its parameters schema is broken (%v); use another tool", call.Name, err))
	}
	if msg := validateArgs(sch, args); msg != "" {
		return Fail(fmt.Sprintf("%s: %s", call.Name, msg))
	}
	if e.Gate != nil {
		d, err := e.Gate.Check(ctx, t.Spec, args)
		if err != nil {
			if ctx.Err() != nil {
				return Fail("interrupted before the call ran")
			}
			return Fail(fmt.Sprintf("approval failed: %v", err))
		}
		rec.Decision = &d
		if !d.Allow {
			return Fail(d.Reason)
		}
	}
	if e.Guard != nil {
		if refused, ok := e.Guard.admit(t.Spec); !ok {
			return refused
		}
	}
	timeout := t.Spec.Timeout
	if timeout <= 0 {
		timeout = e.DefaultTimeout
	}
	runCtx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var res Result
	rec.Ran = true
	started := time.Now()
	if e.Guard != nil {
		res = e.Guard.run(runCtx, t, args)
	} else {
		res = runSafely(runCtx, t, args)
	}
	rec.Duration = time.Since(started)
	if !res.Success && errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil && res.Error == "" {
		res.Error = fmt.Sprintf("%s timed out after %s", call.Name, timeout)
	}
	return Shape(res)
}

// runSafely turns a panicking handler into an error result: one bad tool
// must not take the whole run down.
func runSafely(ctx context.Context, t Tool, args json.RawMessage) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = Fail(fmt.Sprintf("internal error in %s: %v", t.Spec.Name, p))
		}
	}()
	return t.Run(ctx, args)
}

// Decode unmarshals validated arguments into T.
func Decode[T any](raw json.RawMessage) (T, error) {
	var v T
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if err := dec.Decode(&v); err != nil {
		return v, fmt.Errorf("decode arguments: %w", err)
	}
	return v, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}
