package quality

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// TestConcurrentRunsMerge opens the same file from several trackers, as
// concurrent runs do, and checks that no run's records are lost.
func TestConcurrentRunsMerge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tool_quality.json")
	const runs, calls = 8, 25
	trackers := make([]*Tracker, runs)
	for i := range trackers {
		tr, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		trackers[i] = tr
	}
	var wg sync.WaitGroup
	errs := make(chan error, runs)
	for i, tr := range trackers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < calls; j++ {
				tr.Record("builtin:shared", j%5 != 0, time.Millisecond, time.Time{})
				tr.Record(fmt.Sprintf("custom:own%d", i), true, time.Millisecond, time.Time{})
			}
			errs <- tr.Save()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	back, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	all := back.All()
	if s := all["builtin:shared"]; s.Calls != runs*calls || s.Successes != runs*calls*4/5 {
		t.Errorf("shared tool: calls %d successes %d, want %d and %d", s.Calls, s.Successes, runs*calls, runs*calls*4/5)
	}
	for i := 0; i < runs; i++ {
		if s := all[fmt.Sprintf("custom:own%d", i)]; s.Calls != calls {
			t.Errorf("run %d's own tool: %d calls, want %d", i, s.Calls, calls)
		}
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Errorf("lock file left behind: %v", err)
	}
}

func TestSaveTwiceDoesNotDoubleCount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.json")
	tr, _ := Open(path)
	outcomes(tr, "k", "++-")
	for i := 0; i < 2; i++ {
		if err := tr.Save(); err != nil {
			t.Fatal(err)
		}
	}
	outcomes(tr, "k", "+")
	if err := tr.Save(); err != nil {
		t.Fatal(err)
	}
	back, _ := Open(path)
	if s := back.All()["k"]; s.Calls != 4 || s.Successes != 3 {
		t.Errorf("after saves: calls %d successes %d, want 4 and 3", s.Calls, s.Successes)
	}
}

func TestSaveLock(t *testing.T) {
	t.Run("a held lock makes Save wait and give up with ctx", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "q.json")
		if err := os.WriteFile(path+".lock", nil, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, _ := Open(path)
		outcomes(tr, "k", "+")
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if err := tr.SaveContext(ctx); err == nil || !strings.Contains(err.Error(), "another reach is saving") {
			t.Errorf("SaveContext with the lock held = %v, want a lock error", err)
		}
	})
	t.Run("a stale lock is broken", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "q.json")
		if err := os.WriteFile(path+".lock", nil, 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(path+".lock", old, old); err != nil {
			t.Fatal(err)
		}
		tr, _ := Open(path)
		outcomes(tr, "k", "+")
		if err := tr.Save(); err != nil {
			t.Fatalf("Save over a stale lock: %v", err)
		}
		back, _ := Open(path)
		if back.All()["k"].Calls != 1 {
			t.Error("record not saved")
		}
	})
}
