package memory

import (
	"context"
	"fmt"
)

// Exchange is one message of the human in a chat and the reply the agent
// gave it.
type Exchange struct {
	Human string
	Reply string // the last reply recorded for it, "" when none was
}

// ChatTranscript returns the chat messages of session in order, each with
// the agent's last recorded reply to it, so that a resumed chat carries on
// the conversation. Replies are as the trajectory keeps them (4 KiB at
// most); messages pruned from the human-input table are not returned.
func (s *Store) ChatTranscript(ctx context.Context, session int64) ([]Exchange, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT h.content, COALESCE((
			SELECT t.output FROM trajectory t
			WHERE t.session_id = h.session_id AND t.human_input_id = h.id AND t.kind = ? AND t.output != ''
			ORDER BY t.id DESC LIMIT 1), '')
		FROM human_input h WHERE h.session_id = ? AND h.source = 'chat' ORDER BY h.id`, KindModelTurn, session)
	if err != nil {
		return nil, fmt.Errorf("read chat of session %d: %w", session, err)
	}
	defer rows.Close()
	var out []Exchange
	for rows.Next() {
		var e Exchange
		if err := rows.Scan(&e.Human, &e.Reply); err != nil {
			return nil, fmt.Errorf("read chat of session %d: %w", session, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
