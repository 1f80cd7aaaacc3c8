// Package quality keeps per-tool call statistics (calls, successes,
// durations, the last 100 outcomes, consecutive failures) and turns them
// into the ranking penalty of SPEC §4.4, persisted between runs.
package quality

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/reach-agent/reach/workspace"
)

// Window is how many recent outcomes the success rate looks at.
const Window = 100

// Stats are the numbers kept for one tool.
type Stats struct {
	Calls       int       `json:"calls"`
	Successes   int       `json:"successes"`
	Recent      []bool    `json:"recent"`       // last Window outcomes, oldest first
	Durations   []float64 `json:"durations_ms"` // last Window durations
	Consecutive int       `json:"consecutive_failures"`
	LastCall    time.Time `json:"last_call"`
}

// RecentRate is the success rate over the recent window (1 when empty).
func (s Stats) RecentRate() float64 {
	if len(s.Recent) == 0 {
		return 1
	}
	ok := 0
	for _, r := range s.Recent {
		if r {
			ok++
		}
	}
	return float64(ok) / float64(len(s.Recent))
}

// Penalty is SPEC §4.4's multiplier: 1.0 under 3 calls or when the recent
// success rate is at least 0.4; else 0.3 + rate/0.4·0.7, minus
// min(0.3, (consecutive−2)·0.1) from 3 consecutive failures, clamped to
// [0.2, 1.0].
func (s Stats) Penalty() float64 {
	rate := s.RecentRate()
	if s.Calls < 3 || rate >= 0.4 {
		return 1
	}
	p := 0.3 + rate/0.4*0.7
	if s.Consecutive >= 3 {
		p -= math.Min(0.3, float64(s.Consecutive-2)*0.1)
	}
	return math.Max(0.2, math.Min(1, p))
}

// Percentile returns the q-quantile (0..1) of the recent durations in ms.
func (s Stats) Percentile(q float64) float64 {
	if len(s.Durations) == 0 {
		return 0
	}
	d := append([]float64(nil), s.Durations...)
	sort.Float64s(d)
	i := int(math.Ceil(q*float64(len(d)))) - 1
	return d[max(0, min(i, len(d)-1))]
}

// Tracker records outcomes and persists them to a JSON file. Safe for
// concurrent use.
type Tracker struct {
	path  string
	mu    sync.Mutex
	byKey map[string]*Stats
}

// Key is the identity of a tool across runs: backend and name
// ("builtin:read_file_tool", "mcp:github:create_issue", "custom:lint").
func Key(backend, name string) string {
	if backend == "" {
		backend = "builtin"
	}
	return backend + ":" + name
}

// Open loads the statistics at path; a missing file starts empty. An
// empty path keeps them in memory only.
func Open(path string) (*Tracker, error) {
	t := &Tracker{path: path, byKey: map[string]*Stats{}}
	if path == "" {
		return t, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read tool quality: %w", err)
	}
	if err := json.Unmarshal(data, &t.byKey); err != nil {
		return nil, fmt.Errorf("read tool quality %s: %w (delete the file to start over)", path, err)
	}
	return t, nil
}

// Record adds one outcome.
func (t *Tracker) Record(key string, success bool, d time.Duration, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.byKey[key]
	if s == nil {
		s = &Stats{}
		t.byKey[key] = s
	}
	s.Calls++
	if success {
		s.Successes++
		s.Consecutive = 0
	} else {
		s.Consecutive++
	}
	s.Recent = appendWindow(s.Recent, success)
	s.Durations = appendWindow(s.Durations, float64(d.Microseconds())/1000)
	s.LastCall = at
}

func appendWindow[T any](xs []T, x T) []T {
	xs = append(xs, x)
	if len(xs) > Window {
		xs = append(xs[:0:0], xs[len(xs)-Window:]...)
	}
	return xs
}

// Penalty is the ranking multiplier of key (1 for unknown tools).
func (t *Tracker) Penalty(key string) float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.byKey[key]; s != nil {
		return s.Penalty()
	}
	return 1
}

// All returns a copy of every tool's statistics, by key.
func (t *Tracker) All() map[string]Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]Stats, len(t.byKey))
	for k, s := range t.byKey {
		out[k] = *s
	}
	return out
}

// Save writes the statistics atomically.
func (t *Tracker) Save() error {
	if t.path == "" {
		return nil
	}
	t.mu.Lock()
	data, err := json.MarshalIndent(t.byKey, "", " ")
	t.mu.Unlock()
	if err != nil {
		return fmt.Errorf("encode tool quality: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(t.path), 0o755); err != nil {
		return fmt.Errorf("save tool quality: %w", err)
	}
	if err := workspace.WriteFileAtomic(t.path, data, 0o644); err != nil {
		return fmt.Errorf("save tool quality: %w", err)
	}
	return nil
}
