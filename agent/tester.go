package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// TestTailLines is how much of a failing test run goes back to the model.
const TestTailLines = 200

// Tester runs --test-cmd after each implementation task (SPEC §2.1).
type Tester struct {
	Command    string
	MaxRetries int
	// Exec runs the command and returns its exit code and combined output.
	Exec func(ctx context.Context, command string) (exitCode int, output string, timedOut bool, err error)
	// Ask puts the y/n/a question to a human; nil when nobody can answer.
	Ask func(ctx context.Context, question string, choices []string) (string, error)
	// Auto runs without asking (--auto-test). Cowboy runs without asking
	// when nobody can answer.
	Auto   bool
	Cowboy bool

	mu   sync.Mutex
	auto bool // "a" was answered
}

type testRun struct {
	passed  bool
	summary string
	tail    string
}

func (t *Tester) shouldRun(ctx context.Context) (bool, error) {
	t.mu.Lock()
	auto := t.Auto || t.auto
	t.mu.Unlock()
	if auto {
		return true, nil
	}
	if t.Ask == nil {
		return t.Cowboy, nil
	}
	ans, err := t.Ask(ctx, "Run tests? (y/n/a)", []string{"y", "n", "a"})
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, nil
	}
	switch ans {
	case "y":
		return true, nil
	case "a":
		t.mu.Lock()
		t.auto = true
		t.mu.Unlock()
		return true, nil
	}
	return false, nil
}

func (t *Tester) skipReason() string {
	if t.Ask == nil && !t.Cowboy {
		return ": no terminal to ask; pass --auto-test to run them unattended"
	}
	return ": declined"
}

func (t *Tester) run(ctx context.Context) (testRun, error) {
	code, out, timedOut, err := t.Exec(ctx, t.Command)
	if err != nil {
		if ctx.Err() != nil {
			return testRun{}, ctx.Err()
		}
		return testRun{summary: err.Error(), tail: err.Error()}, nil
	}
	tr := testRun{passed: code == 0 && !timedOut, tail: lastLines(out, TestTailLines)}
	switch {
	case timedOut:
		tr.summary = "timed out"
	default:
		tr.summary = fmt.Sprintf("exit code %d", code)
	}
	return tr, nil
}

func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
