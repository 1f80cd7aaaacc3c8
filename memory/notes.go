package memory

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Limits bound the project's long-term memory. When a table grows past its
// limit the oldest rows of earlier sessions go; rows of the current session
// are never pruned.
type Limits struct {
	Facts      int
	Snippets   int
	Notes      int
	HumanInput int
}

// DefaultLimits are the bounds used when Store.Limits is zero.
func DefaultLimits() Limits {
	return Limits{Facts: 500, Snippets: 300, Notes: 200, HumanInput: 100}
}

// Fact is a key fact.
type Fact struct {
	ID      int64
	Session int64
	Content string
}

// Snippet is a key snippet: code worth remembering with where it lives.
type Snippet struct {
	ID          int64
	Session     int64
	Filepath    string
	LineNumber  int
	Snippet     string
	Description string
}

// Note is a research note.
type Note struct {
	ID      int64
	Session int64
	Content string
}

// insertFacts stores facts for session. A fact already known from an
// earlier session (same text, ignoring case and surrounding space) is
// merged: the old row goes and the fact now belongs to this session.
func (s *Store) insertFacts(ctx context.Context, session int64, facts []string, at time.Time, limit int) ([]int64, error) {
	ids := make([]int64, 0, len(facts))
	err := s.tx(ctx, "store key facts", func(tx *sql.Tx) error {
		for _, f := range facts {
			if _, err := tx.ExecContext(ctx, `DELETE FROM key_facts WHERE session_id IS NOT ? AND lower(trim(content)) = lower(trim(?))`, session, f); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO key_facts (session_id, content, created_at) VALUES (?, ?, ?)`, session, f, nowText(at))
			if err != nil {
				return err
			}
			id, err := res.LastInsertId()
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return prune(ctx, tx, "key_facts", session, limit)
	})
	return ids, err
}

func (s *Store) insertSnippet(ctx context.Context, session int64, sn Snippet, at time.Time, limit int) (int64, error) {
	var id int64
	err := s.tx(ctx, "store key snippet", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM key_snippets WHERE session_id IS NOT ? AND filepath = ? AND snippet = ?`, session, sn.Filepath, sn.Snippet); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO key_snippets (session_id, filepath, line_number, snippet, description, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			session, sn.Filepath, sn.LineNumber, sn.Snippet, sn.Description, nowText(at))
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		return prune(ctx, tx, "key_snippets", session, limit)
	})
	return id, err
}

func (s *Store) insertNote(ctx context.Context, session int64, note string, at time.Time, limit int) (int64, error) {
	var id int64
	err := s.tx(ctx, "store research note", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO research_notes (session_id, content, created_at) VALUES (?, ?, ?)`, session, note, nowText(at))
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		return prune(ctx, tx, "research_notes", session, limit)
	})
	return id, err
}

func (s *Store) insertRelatedFiles(ctx context.Context, session int64, paths []string, at time.Time) error {
	return s.tx(ctx, "store related files", func(tx *sql.Tx) error {
		for _, p := range paths {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO related_files (session_id, path, created_at) VALUES (?, ?, ?)`, session, p, nowText(at)); err != nil {
				return err
			}
		}
		return nil
	})
}

// insertHumanInput stores an answer of the human and keeps the newest
// limit rows.
func (s *Store) insertHumanInput(ctx context.Context, session int64, content, source string, at time.Time, limit int) (int64, error) {
	var id int64
	err := s.tx(ctx, "store human input", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO human_input (session_id, content, source, created_at) VALUES (?, ?, ?, ?)`, session, content, source, nowText(at))
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM human_input WHERE id NOT IN (SELECT id FROM human_input ORDER BY id DESC LIMIT ?)`, limit)
		return err
	})
	return id, err
}

// prune deletes the oldest rows of table that belong to other sessions
// while the table holds more than limit rows.
func prune(ctx context.Context, tx *sql.Tx, table string, session int64, limit int) error {
	if limit <= 0 {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		return fmt.Errorf("count %s: %w", table, err)
	}
	if n <= limit {
		return nil
	}
	_, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE id IN (SELECT id FROM "+table+" WHERE session_id IS NOT ? ORDER BY id LIMIT ?)", session, n-limit)
	if err != nil {
		return fmt.Errorf("prune %s: %w", table, err)
	}
	return nil
}

// HumanInput is one stored answer of the human.
type HumanInput struct {
	ID      int64
	Session int64
	Content string
	Source  string // "hil" or "chat"
}

// HumanInputs returns the stored human input, oldest first.
func (s *Store) HumanInputs(ctx context.Context) ([]HumanInput, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, COALESCE(session_id, 0), content, source FROM human_input ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read human input: %w", err)
	}
	defer rows.Close()
	var out []HumanInput
	for rows.Next() {
		var h HumanInput
		if err := rows.Scan(&h.ID, &h.Session, &h.Content, &h.Source); err != nil {
			return nil, fmt.Errorf("read human input: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// Facts returns the key facts of session (0: of every session), oldest first.
func (s *Store) Facts(ctx context.Context, session int64) ([]Fact, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, COALESCE(session_id, 0), content FROM key_facts WHERE ? = 0 OR session_id = ? ORDER BY id`, session, session)
	if err != nil {
		return nil, fmt.Errorf("read key facts: %w", err)
	}
	defer rows.Close()
	var out []Fact
	for rows.Next() {
		var f Fact
		if err := rows.Scan(&f.ID, &f.Session, &f.Content); err != nil {
			return nil, fmt.Errorf("read key facts: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// Notes returns the research notes of session (0: of every session), oldest first.
func (s *Store) Notes(ctx context.Context, session int64) ([]Note, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, COALESCE(session_id, 0), content FROM research_notes WHERE ? = 0 OR session_id = ? ORDER BY id`, session, session)
	if err != nil {
		return nil, fmt.Errorf("read research notes: %w", err)
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		var n Note
		if err := rows.Scan(&n.ID, &n.Session, &n.Content); err != nil {
			return nil, fmt.Errorf("read research notes: %w", err)
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Snippets returns the key snippets of session (0: of every session), oldest first.
func (s *Store) Snippets(ctx context.Context, session int64) ([]Snippet, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, COALESCE(session_id, 0), filepath, line_number, snippet, description FROM key_snippets WHERE ? = 0 OR session_id = ? ORDER BY id`, session, session)
	if err != nil {
		return nil, fmt.Errorf("read key snippets: %w", err)
	}
	defer rows.Close()
	var out []Snippet
	for rows.Next() {
		var sn Snippet
		if err := rows.Scan(&sn.ID, &sn.Session, &sn.Filepath, &sn.LineNumber, &sn.Snippet, &sn.Description); err != nil {
			return nil, fmt.Errorf("read key snippets: %w", err)
		}
		out = append(out, sn)
	}
	return out, rows.Err()
}

// RelatedFiles returns the files registered in session, in order.
func (s *Store) RelatedFiles(ctx context.Context, session int64) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path FROM related_files WHERE session_id = ? ORDER BY id`, session)
	if err != nil {
		return nil, fmt.Errorf("read related files: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("read related files: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// normalize is the comparison form of a fact.
func normalize(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
