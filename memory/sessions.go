package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Session statuses.
const (
	StatusRunning     = "running"
	StatusCompleted   = "completed"
	StatusFailed      = "failed"
	StatusInterrupted = "interrupted"
	StatusLimit       = "limit"
)

// Settings are the parts of a run's configuration a resume must repeat.
type Settings struct {
	Provider            string `json:"provider,omitempty"`
	Model               string `json:"model,omitempty"`
	BaseURL             string `json:"base_url,omitempty"`
	ResearchOnly        bool   `json:"research_only,omitempty"`
	ResearchAndPlanOnly bool   `json:"research_and_plan_only,omitempty"`
	Chat                bool   `json:"chat,omitempty"`
	HIL                 bool   `json:"hil,omitempty"`
	UseAider            bool   `json:"use_aider,omitempty"`
	TestCmd             string `json:"test_cmd,omitempty"`
}

// SessionInfo is one row of the sessions table with its progress.
type SessionInfo struct {
	ID          int64
	CommandLine string
	Version     string
	Task        string
	Status      string
	Settings    Settings
	StartedAt   time.Time
	EndedAt     time.Time // zero while running or after a crash
	// Runner is the process that last began or resumed the session.
	Runner Process

	ResearchDone    bool
	ResearchSummary string
	PlanDone        bool
	Plan            []Task

	InputTokens  int
	OutputTokens int
	CostUSD      float64
}

// Process names a process on a machine: the one running a session.
// The zero value means unknown (sessions recorded before reach kept it).
type Process struct {
	PID  int
	Host string
}

// Task is one planned task and whether it was completed.
type Task struct {
	Position int
	Spec     string
	Done     bool
}

// TasksDone counts the completed tasks at the head of the plan.
func (s SessionInfo) TasksDone() int {
	n := 0
	for _, t := range s.Plan {
		if !t.Done {
			break
		}
		n++
	}
	return n
}

// ErrNoSession is returned for a session id that does not exist.
var ErrNoSession = errors.New("no such session")

// NewSession is what Begin records about a run.
type NewSession struct {
	CommandLine string
	Version     string
	Task        string
	Settings    Settings
	Start       time.Time
	Runner      Process
}

// Begin records a new running session.
func (s *Store) Begin(ctx context.Context, n NewSession) (int64, error) {
	settings, err := json.Marshal(n.Settings)
	if err != nil {
		return 0, fmt.Errorf("begin session: encode settings: %w", err)
	}
	var id int64
	err = s.tx(ctx, "begin session", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO sessions (command_line, version, task, status, started_at, settings, pid, host) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			n.CommandLine, n.Version, n.Task, StatusRunning, nowText(n.Start), string(settings), n.Runner.PID, n.Runner.Host)
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

// Reopen marks an earlier session as running again in runner, for a
// resume.
func (s *Store) Reopen(ctx context.Context, id int64, runner Process) error {
	return s.tx(ctx, fmt.Sprintf("reopen session %d", id), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET status = ?, ended_at = NULL, pid = ?, host = ? WHERE id = ?`, StatusRunning, runner.PID, runner.Host, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNoSession
		}
		return nil
	})
}

// Finish records how a session ended and adds what this run of it used
// (a resumed session adds up its runs).
func (s *Store) Finish(ctx context.Context, id int64, status string, end time.Time, in, out int, cost float64) error {
	return s.tx(ctx, fmt.Sprintf("finish session %d", id), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET status = ?, ended_at = ?, input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, cost_usd = cost_usd + ? WHERE id = ?`,
			status, nowText(end), in, out, cost, id)
		return err
	})
}

// MarkResearchDone records that research finished with summary.
func (s *Store) MarkResearchDone(ctx context.Context, id int64, summary string) error {
	return s.tx(ctx, "record research done", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET research_done = 1, research_summary = ? WHERE id = ?`, summary, id)
		return err
	})
}

// MarkPlanDone records the final plan, replacing any tasks recorded so far.
func (s *Store) MarkPlanDone(ctx context.Context, id int64, plan []string) error {
	return s.tx(ctx, "record the plan", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM tasks WHERE session_id = ?`, id); err != nil {
			return err
		}
		for i, spec := range plan {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tasks (session_id, position, spec) VALUES (?, ?, ?)`, id, i+1, spec); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET plan_done = 1 WHERE id = ?`, id)
		return err
	})
}

// ResetPlan forgets the tasks of an unfinished planning phase.
func (s *Store) ResetPlan(ctx context.Context, id int64) error {
	return s.tx(ctx, "reset the plan", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM tasks WHERE session_id = ?`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET plan_done = 0 WHERE id = ?`, id)
		return err
	})
}

// MarkTaskDone records that the task at position (1-based) was completed.
func (s *Store) MarkTaskDone(ctx context.Context, id int64, position int) error {
	return s.tx(ctx, fmt.Sprintf("record task %d done", position), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tasks SET done = 1 WHERE session_id = ? AND position = ?`, id, position)
		return err
	})
}

// addTask appends a task recorded during planning.
func (s *Store) addTask(ctx context.Context, id int64, spec string) (int64, error) {
	var pos int64
	err := s.tx(ctx, "record task", func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(position), 0) + 1 FROM tasks WHERE session_id = ?`, id).Scan(&pos); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tasks (session_id, position, spec) VALUES (?, ?, ?)`, id, pos, spec)
		return err
	})
	return pos, err
}

const sessionCols = `id, command_line, version, task, status, settings, started_at, COALESCE(ended_at, ''),
	research_done, research_summary, plan_done, input_tokens, output_tokens, cost_usd, pid, host`

func scanSession(row interface{ Scan(...any) error }) (SessionInfo, error) {
	var si SessionInfo
	var settings, started, ended string
	err := row.Scan(&si.ID, &si.CommandLine, &si.Version, &si.Task, &si.Status, &settings, &started, &ended,
		&si.ResearchDone, &si.ResearchSummary, &si.PlanDone, &si.InputTokens, &si.OutputTokens, &si.CostUSD,
		&si.Runner.PID, &si.Runner.Host)
	if err != nil {
		return si, err
	}
	if err := json.Unmarshal([]byte(settings), &si.Settings); err != nil {
		return si, fmt.Errorf("session %d: decode settings: %w", si.ID, err)
	}
	si.StartedAt = parseTime(started)
	if ended != "" {
		si.EndedAt = parseTime(ended)
	}
	return si, nil
}

// Get returns a session with its plan, or ErrNoSession.
func (s *Store) Get(ctx context.Context, id int64) (SessionInfo, error) {
	si, err := scanSession(s.db.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return si, fmt.Errorf("session %d: %w", id, ErrNoSession)
	}
	if err != nil {
		return si, fmt.Errorf("read session %d: %w", id, err)
	}
	si.Plan, err = s.plan(ctx, id)
	return si, err
}

// plan reads the tasks of session id in order.
func (s *Store) plan(ctx context.Context, id int64) ([]Task, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT position, spec, done FROM tasks WHERE session_id = ? ORDER BY position`, id)
	if err != nil {
		return nil, fmt.Errorf("read plan of session %d: %w", id, err)
	}
	defer rows.Close()
	var plan []Task
	for rows.Next() {
		var t Task
		if err := rows.Scan(&t.Position, &t.Spec, &t.Done); err != nil {
			return nil, fmt.Errorf("read plan of session %d: %w", id, err)
		}
		plan = append(plan, t)
	}
	return plan, rows.Err()
}

// Latest returns the id of the most recent session, or ErrNoSession.
func (s *Store) Latest(ctx context.Context) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `SELECT id FROM sessions ORDER BY id DESC LIMIT 1`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNoSession
	}
	if err != nil {
		return 0, fmt.Errorf("find the latest session: %w", err)
	}
	return id, nil
}

// List returns the newest sessions first, at most limit (0: all).
func (s *Store) List(ctx context.Context, limit int) ([]SessionInfo, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+sessionCols+` FROM sessions ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []SessionInfo
	for rows.Next() {
		si, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, si)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	rows.Close()
	for i := range out {
		if out[i].Plan, err = s.plan(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}
