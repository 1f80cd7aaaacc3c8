package memory

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations bring the schema from version i to i+1; the schema version is
// SQLite's user_version. Never edit a released step: append a new one.
var migrations = []string{
	// 1: the first schema.
	`CREATE TABLE sessions (
		id           INTEGER PRIMARY KEY,
		command_line TEXT NOT NULL DEFAULT '',
		version      TEXT NOT NULL DEFAULT '',
		task         TEXT NOT NULL DEFAULT '',
		status       TEXT NOT NULL DEFAULT 'running',
		started_at   TEXT NOT NULL,
		ended_at     TEXT
	);
	CREATE TABLE human_input (
		id         INTEGER PRIMARY KEY,
		session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
		content    TEXT NOT NULL,
		source     TEXT NOT NULL,
		created_at TEXT NOT NULL
	);
	CREATE TABLE key_facts (
		id         INTEGER PRIMARY KEY,
		session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
		content    TEXT NOT NULL,
		created_at TEXT NOT NULL
	);
	CREATE TABLE key_snippets (
		id          INTEGER PRIMARY KEY,
		session_id  INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
		filepath    TEXT NOT NULL,
		line_number INTEGER NOT NULL,
		snippet     TEXT NOT NULL,
		description TEXT NOT NULL DEFAULT '',
		created_at  TEXT NOT NULL
	);
	CREATE TABLE research_notes (
		id         INTEGER PRIMARY KEY,
		session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
		content    TEXT NOT NULL,
		created_at TEXT NOT NULL
	);
	CREATE TABLE related_files (
		id         INTEGER PRIMARY KEY,
		session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
		path       TEXT NOT NULL,
		created_at TEXT NOT NULL,
		UNIQUE (session_id, path)
	);
	CREATE TABLE tasks (
		id         INTEGER PRIMARY KEY,
		session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
		position   INTEGER NOT NULL,
		spec       TEXT NOT NULL,
		done       INTEGER NOT NULL DEFAULT 0,
		UNIQUE (session_id, position)
	);
	CREATE TABLE trajectory (
		id            INTEGER PRIMARY KEY,
		session_id    INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
		phase         TEXT NOT NULL DEFAULT '',
		kind          TEXT NOT NULL,
		name          TEXT NOT NULL DEFAULT '',
		arguments     TEXT NOT NULL DEFAULT '',
		output        TEXT NOT NULL DEFAULT '',
		success       INTEGER NOT NULL DEFAULT 1,
		error         TEXT NOT NULL DEFAULT '',
		input_tokens  INTEGER NOT NULL DEFAULT 0,
		output_tokens INTEGER NOT NULL DEFAULT 0,
		cost_usd      REAL NOT NULL DEFAULT 0,
		duration_ms   INTEGER NOT NULL DEFAULT 0,
		created_at    TEXT NOT NULL
	);
	CREATE INDEX trajectory_session ON trajectory(session_id, id);`,

	// 2: resume points, the run's settings, cost totals, and the human
	// input each trajectory row answers to.
	`ALTER TABLE sessions ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
	ALTER TABLE sessions ADD COLUMN research_done INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN research_summary TEXT NOT NULL DEFAULT '';
	ALTER TABLE sessions ADD COLUMN plan_done INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
	ALTER TABLE trajectory ADD COLUMN human_input_id INTEGER REFERENCES human_input(id) ON DELETE SET NULL;
	CREATE INDEX human_input_created ON human_input(id);
	CREATE INDEX key_facts_session ON key_facts(session_id);
	CREATE INDEX research_notes_session ON research_notes(session_id);`,

	// 3: the process that runs a session, so that one killed mid-run can
	// be told from one still running.
	`ALTER TABLE sessions ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN host TEXT NOT NULL DEFAULT '';`,
}

// SchemaVersion is the version Open brings every database to.
func SchemaVersion() int { return len(migrations) }

// migrate applies the missing steps, each in its own transaction together
// with the version bump, so a crash leaves a consistent version.
func (s *Store) migrate(ctx context.Context) error {
	return migrateTo(ctx, s, len(migrations))
}

func migrateTo(ctx context.Context, s *Store, target int) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this reach knows (%d): upgrade reach or use another --project-state-dir", v, len(migrations))
	}
	for ; v < target; v++ {
		step := v + 1
		err := s.tx(ctx, fmt.Sprintf("migrate schema to version %d", step), func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", step))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
