// Package audit writes and reads the audit log of a session: one JSON line
// per tool call in <state dir>/audit/<session>.jsonl (SPEC §4.6), with
// secrets redacted from the arguments.
package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Decisions of an entry.
const (
	Allowed = "allowed" // the policy let it run without asking
	Asked   = "asked"   // a human was asked; Rule says the answer
	Denied  = "denied"  // the policy refused it
	Invalid = "invalid" // refused before the policy: unknown tool, not offered, bad arguments
	Guarded = "refused" // allowed, but the circuit breaker or the rate limit stopped it
)

// Candidate is a tool offered by retrieval, with its score.
type Candidate struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// Entry is one call.
type Entry struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	Phase   string    `json:"phase,omitempty"`
	Tool    string    `json:"tool"`
	Backend string    `json:"backend,omitempty"`
	CallID  string    `json:"call_id,omitempty"`
	// Offered is how many tools the model was offered; Candidates the
	// ranked ones among them with their scores, when retrieval ran.
	Offered    int             `json:"offered,omitempty"`
	Candidates []Candidate     `json:"candidates,omitempty"`
	Arguments  json.RawMessage `json:"arguments"`
	Decision   string          `json:"decision"`
	Rule       string          `json:"rule,omitempty"`
	Ran        bool            `json:"ran"`
	DurationMS float64         `json:"duration_ms"`
	Success    bool            `json:"success"`
	ReturnCode *int            `json:"return_code,omitempty"`
	// ResultBytes is the size of the output or error the model got.
	ResultBytes int    `json:"result_bytes"`
	Summary     string `json:"summary"`
}

// Log appends entries to one session's file. Safe for concurrent use.
type Log struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

// Path is the log file of session under dir (the state dir's audit/).
func Path(dir, session string) string {
	return filepath.Join(dir, session+".jsonl")
}

// Open opens (creating it if needed) the log of session in dir.
func Open(dir, session string) (*Log, error) {
	if session == "" || strings.ContainsAny(session, `/\`) || session == "." || session == ".." {
		return nil, fmt.Errorf("open audit log: bad session id %q", session)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	p := Path(dir, session)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	return &Log{path: p, f: f}, nil
}

// Path is the file written.
func (l *Log) Path() string { return l.path }

// Write appends e as one line, its arguments redacted.
func (l *Log) Write(e Entry) error {
	e.Arguments = RedactJSON(e.Arguments)
	e.Summary = RedactText(e.Summary)
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("write audit entry: %w", err)
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("write audit entry: log closed")
	}
	// One write per line: with O_APPEND concurrent writers never interleave.
	if _, err := l.f.Write(line); err != nil {
		return fmt.Errorf("write audit entry to %s: %w", l.path, err)
	}
	return nil
}

// Close closes the file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// Summarize is the short summary of a result: its first line, at most 120
// characters.
func Summarize(success bool, output, errMsg string) string {
	s := output
	if !success {
		s = errMsg
	}
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}
