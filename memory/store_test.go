package memory

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openTest(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state", DBFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func version(t *testing.T, s *Store) int {
	t.Helper()
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOpenCreatesTheSchemaInWAL(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	if got := version(t, s); got != SchemaVersion() {
		t.Fatalf("schema version %d, want %d", got, SchemaVersion())
	}
	var mode string
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q, %v", mode, err)
	}
	var busy int
	if err := s.db.QueryRow("PRAGMA busy_timeout").Scan(&busy); err != nil || busy != int(BusyTimeout.Milliseconds()) {
		t.Fatalf("busy timeout %d, %v", busy, err)
	}
	for _, table := range []string{"sessions", "human_input", "key_facts", "key_snippets", "research_notes", "related_files", "tasks", "trajectory"} {
		var n int
		if err := s.db.QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&n); err != nil || n != 1 {
			t.Errorf("table %s missing (%v)", table, err)
		}
	}
	// Opening again is a no-op.
	s2, err := Open(context.Background(), s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := version(t, s2); got != SchemaVersion() {
		t.Fatalf("reopened at version %d", got)
	}
}

func TestMigrateFromThePreviousSchemaKeepsData(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), DBFile)
	ctx := context.Background()
	// Build a database at version 1 with a session and a fact in it.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	old := &Store{db: db, path: path}
	if err := migrateTo(ctx, old, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO sessions (id, task, started_at) VALUES (7, 'old task', '2025-01-02T03:04:05Z')`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO key_facts (session_id, content, created_at) VALUES (7, 'tests run with make check', '2025-01-02T03:04:05Z')`); err != nil {
		t.Fatal(err)
	}
	if got := version(t, old); got != 1 {
		t.Fatalf("version %d, want 1", got)
	}
	db.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := version(t, s); got != SchemaVersion() {
		t.Fatalf("version %d after migration", got)
	}
	info, err := s.Get(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	if info.Task != "old task" || info.Status != StatusRunning || info.ResearchDone || info.Settings != (Settings{}) || info.Runner != (Process{}) {
		t.Fatalf("migrated session: %+v", info)
	}
	facts, err := s.Facts(ctx, 7)
	if err != nil || len(facts) != 1 || facts[0].Content != "tests run with make check" {
		t.Fatalf("facts after migration: %v %v", facts, err)
	}
	// The new column works.
	if err := s.AppendTrajectory(ctx, 7, []Step{{Kind: KindToolCall, Name: "x", HumanInput: 0, At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefusesBrokenDatabases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("not a database", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), DBFile)
		junk := strings.Repeat("this is not sqlite ", 400)
		if err := os.WriteFile(path, []byte(junk), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(ctx, path)
		var dbe *DBError
		if !errors.As(err, &dbe) {
			t.Fatalf("got %v, want a DBError", err)
		}
		for _, want := range []string{path, "corrupt", "mv ", "--project-state-dir"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("message lacks %q: %s", want, err)
			}
		}
		if b, _ := os.ReadFile(path); string(b) != junk {
			t.Fatal("the broken file was changed")
		}
	})
	t.Run("newer schema", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), DBFile)
		db, _ := sql.Open("sqlite", "file:"+path)
		if _, err := db.Exec("PRAGMA user_version = 999"); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "newer") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("locked", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), DBFile)
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		other, err := open(ctx, path, 50*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		// Hold the write lock in one store; the other's write gives up.
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.Exec(`INSERT INTO sessions (task, started_at) VALUES ('x', 'y')`); err != nil {
			t.Fatal(err)
		}
		_, err = other.Begin(ctx, NewSession{Task: "t", Start: time.Now()})
		var dbe *DBError
		if !errors.As(err, &dbe) || !strings.Contains(err.Error(), "locked") {
			t.Fatalf("got %v, want a locked DBError", err)
		}
	})
}

func TestSessionsProgressAndList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	start := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	id, err := s.Begin(ctx, NewSession{CommandLine: "reach -m x", Version: "v1", Task: "do x", Settings: Settings{Model: "m", TestCmd: "go test"}, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func() error
		want func(SessionInfo) bool
	}{
		{"research", func() error { return s.MarkResearchDone(ctx, id, "found it") }, func(si SessionInfo) bool { return si.ResearchDone && si.ResearchSummary == "found it" && !si.PlanDone }},
		{"plan", func() error { return s.MarkPlanDone(ctx, id, []string{"a", "b"}) }, func(si SessionInfo) bool { return si.PlanDone && len(si.Plan) == 2 && si.TasksDone() == 0 }},
		{"task 1", func() error { return s.MarkTaskDone(ctx, id, 1) }, func(si SessionInfo) bool { return si.TasksDone() == 1 }},
		{"finish", func() error { return s.Finish(ctx, id, StatusCompleted, start.Add(time.Minute), 10, 5, 0.25) }, func(si SessionInfo) bool {
			return si.Status == StatusCompleted && si.EndedAt.Equal(start.Add(time.Minute)) && si.CostUSD == 0.25 && si.InputTokens == 10
		}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if err := st.do(); err != nil {
				t.Fatal(err)
			}
			si, err := s.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !st.want(si) {
				t.Fatalf("after %s: %+v", st.name, si)
			}
		})
	}
	si, _ := s.Get(ctx, id)
	if si.Settings.TestCmd != "go test" || si.CommandLine != "reach -m x" || !si.StartedAt.Equal(start) {
		t.Fatalf("stored: %+v", si)
	}
	id2, _ := s.Begin(ctx, NewSession{Task: "second", Start: start})
	list, err := s.List(ctx, 0)
	if err != nil || len(list) != 2 || list[0].ID != id2 || list[1].TasksDone() != 1 || len(list[1].Plan) != 2 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if latest, err := s.Latest(ctx); err != nil || latest != id2 {
		t.Fatalf("latest %d %v", latest, err)
	}
	if _, err := s.Get(ctx, 999); !errors.Is(err, ErrNoSession) {
		t.Fatalf("missing session: %v", err)
	}
	if err := s.Reopen(ctx, 999, Process{}); !errors.Is(err, ErrNoSession) {
		t.Fatalf("reopen missing: %v", err)
	}
}

func TestSessionRunnerIsRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	first := Process{PID: 4242, Host: "box"}
	id, err := s.Begin(ctx, NewSession{Task: "t", Start: time.Now(), Runner: first})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, id, StatusInterrupted, time.Now(), 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	resumer := Process{PID: 5151, Host: "box"}
	cases := []struct {
		name string
		do   func() error
		want Process
	}{
		{"begin", func() error { return nil }, first},
		{"resume", func() error { return s.Reopen(ctx, id, resumer) }, resumer},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.do(); err != nil {
				t.Fatal(err)
			}
			si, err := s.Get(ctx, id)
			if err != nil || si.Runner != c.want {
				t.Fatalf("runner = %+v (%v), want %+v", si.Runner, err, c.want)
			}
		})
	}
}

func TestWipeDeletesEverything(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	id, _ := s.Begin(ctx, NewSession{Task: "t", Start: time.Now()})
	ss, err := s.OpenSession(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ss.AddKeyFacts(ctx, []string{"a fact"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Wipe(ctx); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.List(ctx, 0); len(list) != 0 {
		t.Fatalf("sessions left: %v", list)
	}
	if facts, _ := s.Facts(ctx, 0); len(facts) != 0 {
		t.Fatalf("facts left: %v", facts)
	}
}
