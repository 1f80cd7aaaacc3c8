package memory

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Trajectory row kinds.
const (
	KindModelTurn = "model_turn"
	KindToolCall  = "tool_call"
	KindError     = "error"
)

// Step is one trajectory row: a model turn or a tool call.
type Step struct {
	ID           int64
	Phase        string
	Kind         string
	Name         string // the tool, for a tool call
	Arguments    string
	Output       string // the reply text or the tool output, shortened
	Success      bool
	Error        string
	InputTokens  int
	OutputTokens int
	CostUSD      float64
	DurationMS   int64
	HumanInput   int64 // the human input this step answers to; 0 none
	At           time.Time
}

// AppendTrajectory writes steps of session in one transaction.
func (s *Store) AppendTrajectory(ctx context.Context, session int64, steps []Step) error {
	if len(steps) == 0 {
		return nil
	}
	return s.tx(ctx, fmt.Sprintf("write %d trajectory rows", len(steps)), func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO trajectory (session_id, phase, kind, name, arguments, output, success, error,
			input_tokens, output_tokens, cost_usd, duration_ms, human_input_id, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, st := range steps {
			var human any
			if st.HumanInput > 0 {
				human = st.HumanInput
			}
			if _, err := stmt.ExecContext(ctx, session, st.Phase, st.Kind, st.Name, st.Arguments, st.Output, st.Success, st.Error,
				st.InputTokens, st.OutputTokens, st.CostUSD, st.DurationMS, human, nowText(st.At)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Trajectory returns the steps of session in order.
func (s *Store) Trajectory(ctx context.Context, session int64) ([]Step, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, phase, kind, name, arguments, output, success, error, input_tokens, output_tokens,
		cost_usd, duration_ms, COALESCE(human_input_id, 0), created_at FROM trajectory WHERE session_id = ? ORDER BY id`, session)
	if err != nil {
		return nil, fmt.Errorf("read trajectory of session %d: %w", session, err)
	}
	defer rows.Close()
	var out []Step
	for rows.Next() {
		var st Step
		var at string
		if err := rows.Scan(&st.ID, &st.Phase, &st.Kind, &st.Name, &st.Arguments, &st.Output, &st.Success, &st.Error,
			&st.InputTokens, &st.OutputTokens, &st.CostUSD, &st.DurationMS, &st.HumanInput, &at); err != nil {
			return nil, fmt.Errorf("read trajectory of session %d: %w", session, err)
		}
		st.At = parseTime(at)
		out = append(out, st)
	}
	return out, rows.Err()
}
