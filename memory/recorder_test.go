package memory

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/events"
)

// playTurns emits n model turns, each streamed in 50 deltas and followed
// by one tool call, as the agent loop does.
func playTurns(sink events.Sink, n int) {
	sink.Emit(events.Phase{Name: "research"})
	for i := range n {
		for range 50 {
			sink.Emit(events.TextDelta{Phase: "research", Text: "tok "})
		}
		sink.Emit(events.Message{Phase: "research", Text: fmt.Sprintf("turn %d", i)})
		sink.Emit(events.Usage{InputTokens: (i + 1) * 1000, OutputTokens: (i + 1) * 100, CostUSD: float64(i+1) * 0.01, Requests: i + 1})
		id := fmt.Sprintf("c%d", i)
		sink.Emit(events.ToolCall{Phase: "research", ID: id, Name: "read_file_tool", Arguments: `{"filepath":"a.go"}`})
		sink.Emit(events.ToolResult{Phase: "research", ID: id, Name: "read_file_tool", Success: i%10 != 0, Output: strings.Repeat("x", 300), Error: map[bool]string{true: "boom"}[i%10 == 0], DurationMS: 3})
	}
}

func TestRecorderBatchesA200TurnSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	ss := newSession(t, s, "t")
	hid, _ := ss.AddHumanInput(ctx, "go ahead", "chat")
	var next events.Recorder
	rec := NewRecorder(&next, s, ss.ID(), ss.LastHumanInput)
	before := s.Commits()
	playTurns(rec, 200)
	rec.Emit(events.Result{Status: "failed", Error: "tests still fail"})
	rec.Close()
	commits := s.Commits() - before

	if got := len(next.Events()); got != 1+200*54+1 {
		t.Fatalf("%d events passed on", got)
	}
	steps, err := s.Trajectory(ctx, ss.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 401 {
		t.Fatalf("%d rows, want 200 turns + 200 calls + 1 error", len(steps))
	}
	// 400 rows in batches of FlushRows, plus the phase and result flushes;
	// never one write per token or per row.
	if max := int64(400/FlushRows + 3); commits > max {
		t.Fatalf("%d write transactions for 401 rows, want at most %d", commits, max)
	}
	turn, call, last := steps[2], steps[3], steps[len(steps)-1]
	if turn.Kind != KindModelTurn || turn.Phase != "research" || turn.Output != "turn 1" || turn.InputTokens != 1000 || turn.OutputTokens != 100 || fmt.Sprintf("%.2f", turn.CostUSD) != "0.01" {
		t.Fatalf("model turn row: %+v", turn)
	}
	if call.Kind != KindToolCall || call.Name != "read_file_tool" || call.Arguments != `{"filepath":"a.go"}` || !call.Success || call.HumanInput != hid {
		t.Fatalf("tool call row: %+v", call)
	}
	if steps[1].Success || steps[1].Error != "boom" {
		t.Fatalf("failed call row: %+v", steps[1])
	}
	if last.Kind != KindError || last.Error != "tests still fail" {
		t.Fatalf("error row: %+v", last)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("200-turn session: %d rows in %d write transactions, database %d KiB", len(steps), commits, fi.Size()/1024)
}

func TestRecorderFlushesOnTheTimer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	ss := newSession(t, s, "t")
	rec := NewRecorder(nil, s, ss.ID(), nil)
	defer rec.Close()
	rec.Emit(events.ToolCall{ID: "a", Name: "x"})
	rec.Emit(events.ToolResult{ID: "a", Name: "x", Success: true})
	deadline := time.Now().Add(5 * FlushInterval)
	for time.Now().Before(deadline) {
		if steps, _ := s.Trajectory(ctx, ss.ID()); len(steps) == 1 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("a lone row was not written by the timer")
}

func TestClipKeepsUTF8(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("é", maxStepText)
	got := clip(s)
	if !strings.HasPrefix(got, strings.Repeat("é", maxStepText/2)) || !strings.Contains(got, "bytes more]") {
		t.Fatalf("clip: %q…", got[:20])
	}
}
