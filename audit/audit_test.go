package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		gone     []string // must not appear in the output
		kept     []string // must still appear
	}{
		{"secret keys", `{"api_key":"abc123","X-Auth-Token":"t0k","dbPassword":"hunter2","max_tokens":5,"author":"bob"}`,
			[]string{"abc123", "t0k", "hunter2"}, []string{`"max_tokens":5`, `"author":"bob"`}},
		{"provider key in a command", `{"command":"curl -H 'Authorization: Bearer sk-proj-ABCDEFGHIJKLMNOPQRST' https://x"}`,
			[]string{"sk-proj-ABCDEFGHIJKLMNOPQRST"}, []string{"curl", "https://x"}},
		{"env assignment", `{"command":"GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 gh pr list"}`,
			[]string{"ghp_abcdefghijklmnopqrstuvwxyz0123"}, []string{"GITHUB_TOKEN=", "gh pr list"}},
		{"password in a URL", `{"url":"postgres://app:s3cr3t@db:5432/x"}`, []string{"s3cr3t"}, []string{"postgres://app:", "@db:5432/x"}},
		{"flag", `{"command":"mysql --password=pw123 -u root"}`, []string{"pw123"}, []string{"mysql", "-u root"}},
		{"nested", `{"headers":{"Authorization":"Basic dXNlcjpwYXNzd29yZA=="},"items":[{"token":"x1"}]}`,
			[]string{"dXNlcjpwYXNzd29yZA==", "x1"}, []string{"headers"}},
		{"aws key", `{"text":"key AKIAIOSFODNN7EXAMPLE here"}`, []string{"AKIAIOSFODNN7EXAMPLE"}, []string{"here"}},
		{"private key", `{"content":"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----"}`, []string{"MIIE"}, nil},
		{"not json", `token=abc`, []string{"abc"}, []string{"token="}},
		{"empty", ``, nil, []string{"{}"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := string(RedactJSON(json.RawMessage(tc.in)))
			if !json.Valid([]byte(out)) {
				t.Fatalf("not JSON: %s", out)
			}
			for _, g := range tc.gone {
				if strings.Contains(out, g) {
					t.Errorf("%q left in %s", g, out)
				}
			}
			for _, k := range tc.kept {
				if !strings.Contains(out, k) {
					t.Errorf("%q lost from %s", k, out)
				}
			}
		})
	}
}

func TestLogRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := Open(dir, "42")
	if err != nil {
		t.Fatal(err)
	}
	rc := 3
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := Entry{Time: at, Session: "42", Phase: "research", Tool: fmt.Sprintf("t%d", i), Arguments: json.RawMessage(`{"password":"p"}`),
				Decision: Asked, Rule: "human:yes", Ran: true, Success: true, ReturnCode: &rc, ResultBytes: 10, Summary: "ok",
				Candidates: []Candidate{{"mcp__a__b", 0.9}}, Offered: 30}
			if err := l.Write(e); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Write(Entry{}); err == nil {
		t.Errorf("a write after Close must fail")
	}
	f, _ := os.OpenFile(Path(dir, "42"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{half a line\n")
	f.Close()
	got, damaged, err := Read(Path(dir, "42"))
	if err != nil || damaged != 1 || len(got) != 50 {
		t.Fatalf("read %d entries, %d damaged, %v", len(got), damaged, err)
	}
	e := got[0]
	if e.Session != "42" || e.Decision != Asked || *e.ReturnCode != 3 || string(e.Arguments) != `{"password":"[REDACTED]"}` || !e.Time.Equal(at) {
		t.Errorf("entry = %+v", e)
	}
	var buf bytes.Buffer
	if err := Format(&buf, got[:1]); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"research", "asked by human:yes", "ok (rc 3)", `{"password":"[REDACTED]"}`, "retrieval: 30 offered; mcp__a__b 0.90"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("formatted output lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Find(dir, ""); err == nil || !strings.Contains(err.Error(), "no audit log") {
		t.Errorf("empty dir: %v", err)
	}
	for i, s := range []string{"7", "8"} {
		os.WriteFile(Path(dir, s), nil, 0o600)
		os.Chtimes(Path(dir, s), time.Unix(int64(1000+i), 0), time.Unix(int64(1000+i), 0))
	}
	tests := []struct{ ask, want, err string }{
		{"", Path(dir, "8"), ""},
		{"7", Path(dir, "7"), ""},
		{"9", "", "sessions with one: 7, 8"},
	}
	for _, tc := range tests {
		got, err := Find(dir, tc.ask)
		if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Find(%q) = %q, %v", tc.ask, got, err)
		}
	}
	if _, err := Open(dir, "../x"); err == nil {
		t.Errorf("a session id with a path must be refused")
	}
}
