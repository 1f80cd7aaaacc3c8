package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DBFile is the database's file name inside the project state directory.
const DBFile = "reach.db"

// BusyTimeout is how long a write waits for another process holding the
// database before it gives up with a "locked" error.
const BusyTimeout = 5 * time.Second

// Store is the project's SQLite database: sessions, memory, plan and
// trajectory. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string

	// commits counts write transactions, to measure batching.
	commits atomic.Int64
}

// DBError is a database that cannot be used as it is: corrupt, locked or
// unreadable. Its message says how to get out; reach never resets the file.
type DBError struct {
	Path    string
	Problem string
	Err     error
}

func (e *DBError) Error() string {
	return fmt.Sprintf("memory database %s %s (%v): %s", e.Path, e.Problem, e.Err, e.fix())
}

func (e *DBError) Unwrap() error { return e.Err }

func (e *DBError) fix() string {
	if e.Problem == "is locked by another process" {
		return "wait for the other reach to finish, or run this one with another --project-state-dir"
	}
	return fmt.Sprintf("move it aside (mv %s %s.broken) to start with an empty memory, or run with another --project-state-dir; reach does not reset it by itself", e.Path, e.Path)
}

// Open opens (creating when missing) the database at path, switches it to
// WAL with a busy timeout, checks it and brings its schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, BusyTimeout)
}

func open(ctx context.Context, path string, busy time.Duration) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create state directory for %s: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, classify(path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.check(ctx); err != nil {
		db.Close()
		return nil, classify(path, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, classify(path, err)
	}
	return s, nil
}

// check runs SQLite's quick integrity check.
func (s *Store) check(ctx context.Context) error {
	var res string
	if err := s.db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return &sqliteProblem{msg: "integrity check: " + res, code: sqlite3.SQLITE_CORRUPT}
	}
	return nil
}

// sqliteProblem is a problem found by reach itself, classified like
// SQLite's own errors.
type sqliteProblem struct {
	msg  string
	code int
}

func (p *sqliteProblem) Error() string { return p.msg }

// classify turns corrupt, locked and unreadable databases into a DBError.
func classify(path string, err error) error {
	code := 0
	var se *sqlite.Error
	var sp *sqliteProblem
	switch {
	case errors.As(err, &se):
		code = se.Code() & 0xff
	case errors.As(err, &sp):
		code = sp.code
	}
	switch code {
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return &DBError{Path: path, Problem: "is corrupt or not a database", Err: err}
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return &DBError{Path: path, Problem: "is locked by another process", Err: err}
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_IOERR:
		return &DBError{Path: path, Problem: "cannot be opened for writing", Err: err}
	}
	return fmt.Errorf("open memory database %s: %w", path, err)
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close checkpoints the WAL and closes the database.
func (s *Store) Close() error {
	_, _ = s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close memory database %s: %w", s.path, err)
	}
	return nil
}

// Commits is the number of write transactions committed so far.
func (s *Store) Commits() int64 { return s.commits.Load() }

// tx runs f in one write transaction.
func (s *Store) tx(ctx context.Context, what string, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", what, classify(s.path, err))
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: commit: %w", what, classify(s.path, err))
	}
	s.commits.Add(1)
	return nil
}

// Wipe deletes the project's memory: every session, note, fact, snippet,
// file, task, human input and trajectory row (--wipe-project-memory).
func (s *Store) Wipe(ctx context.Context) error {
	err := s.tx(ctx, "wipe project memory", func(tx *sql.Tx) error {
		for _, t := range []string{"trajectory", "tasks", "related_files", "key_snippets", "key_facts", "research_notes", "human_input", "sessions"} {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+t); err != nil {
				return fmt.Errorf("clear %s: %w", t, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "VACUUM"); err != nil {
		return fmt.Errorf("wipe project memory: vacuum: %w", err)
	}
	return nil
}

func nowText(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
