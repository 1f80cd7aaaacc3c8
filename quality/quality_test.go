package quality

import (
	"math"
	"path/filepath"
	"testing"
	"time"
)

func outcomes(t *Tracker, key string, seq string) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range seq {
		t.Record(key, c == '+', time.Duration(i+1)*time.Millisecond, at.Add(time.Duration(i)*time.Second))
	}
}

func TestPenalty(t *testing.T) {
	tests := []struct {
		name, seq string
		want      float64
	}{
		{"no calls", "", 1},
		{"two failures are too few to judge", "--", 1},
		{"rate 0.4 is fine", "++---", 1},
		{"rate 1/3, one trailing failure", "+--+--+---+-", 0.3 + (4.0/12)/0.4*0.7},
		{"rate 0.25, four consecutive failures", "+--+---+----", 0.3 + 0.25/0.4*0.7 - 0.2},
		{"all failed, 3 in a row", "---", 0.2},
		{"1 of 5, 4 in a row", "+----", math.Max(0.2, 0.3+0.2/0.4*0.7-0.2)},
		{"1 of 10, 9 in a row: clamped", "+---------", math.Max(0.2, 0.3+0.1/0.4*0.7-0.3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _ := Open("")
			outcomes(tr, "k", tt.seq)
			if got := tr.Penalty("k"); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Penalty after %q = %v, want %v", tt.seq, got, tt.want)
			}
		})
	}
}

func TestWindowAndPersistence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "tool_quality.json")
	tr, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// 150 failures then 100 successes: the window forgets the failures.
	for i := 0; i < 150; i++ {
		tr.Record("mcp:gh:issue", false, time.Millisecond, time.Time{})
	}
	if p := tr.Penalty("mcp:gh:issue"); p != 0.2 {
		t.Fatalf("penalty after 150 failures = %v, want 0.2", p)
	}
	for i := 0; i < 100; i++ {
		tr.Record("mcp:gh:issue", true, time.Duration(i+1)*time.Millisecond, time.Time{})
	}
	if err := tr.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s := back.All()["mcp:gh:issue"]
	if s.Calls != 250 || s.Successes != 100 || len(s.Recent) != Window || s.Penalty() != 1 {
		t.Errorf("reloaded stats = calls %d successes %d window %d penalty %v", s.Calls, s.Successes, len(s.Recent), s.Penalty())
	}
	if p50, p95 := s.Percentile(0.5), s.Percentile(0.95); p50 != 50 || p95 != 95 {
		t.Errorf("p50, p95 = %v, %v; want 50, 95", p50, p95)
	}
}
