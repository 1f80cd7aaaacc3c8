// Package quality keeps per-tool call statistics (calls, successes,
// durations, the last 100 outcomes, consecutive failures) and turns them
// into the ranking penalty of SPEC §4.4, persisted between runs.
package quality

import (
	"context"
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

// Tracker records outcomes and persists them to a JSON file. Several
// runs may share the file: Save merges this tracker's new outcomes into
// what is on disk at that moment, under a lock file, so concurrent runs
// do not lose each other's records. Safe for concurrent use.
type Tracker struct {
	path    string
	mu      sync.Mutex
	byKey   map[string]*Stats
	pending map[string][]outcome // recorded since the last Save
}

// outcome is one recorded call, kept until it is saved.
type outcome struct {
	success bool
	ms      float64
	at      time.Time
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
	t := &Tracker{path: path, byKey: map[string]*Stats{}, pending: map[string][]outcome{}}
	if path == "" {
		return t, nil
	}
	byKey, err := load(path)
	if err != nil {
		return nil, err
	}
	t.byKey = byKey
	return t, nil
}

// load reads the statistics file; a missing one is empty.
func load(path string) (map[string]*Stats, error) {
	byKey := map[string]*Stats{}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return byKey, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read tool quality: %w", err)
	}
	if err := json.Unmarshal(data, &byKey); err != nil {
		return nil, fmt.Errorf("read tool quality %s: %w (delete the file to start over)", path, err)
	}
	return byKey, nil
}

// Record adds one outcome.
func (t *Tracker) Record(key string, success bool, d time.Duration, at time.Time) {
	o := outcome{success: success, ms: float64(d.Microseconds()) / 1000, at: at}
	t.mu.Lock()
	defer t.mu.Unlock()
	apply(t.byKey, key, o)
	t.pending[key] = append(t.pending[key], o)
}

// apply adds o to the statistics of key in byKey.
func apply(byKey map[string]*Stats, key string, o outcome) {
	s := byKey[key]
	if s == nil {
		s = &Stats{}
		byKey[key] = s
	}
	s.Calls++
	if o.success {
		s.Successes++
		s.Consecutive = 0
	} else {
		s.Consecutive++
	}
	s.Recent = appendWindow(s.Recent, o.success)
	s.Durations = appendWindow(s.Durations, o.ms)
	if o.at.After(s.LastCall) {
		s.LastCall = o.at
	}
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

// Save merges the outcomes recorded since the last Save into the file,
// as it is now on disk, and writes it atomically; the tracker then holds
// the merged statistics. A damaged file is replaced by this tracker's
// records rather than blocking them.
func (t *Tracker) Save() error {
	return t.SaveContext(context.Background())
}

// SaveContext is Save, giving up waiting for the lock when ctx ends.
func (t *Tracker) SaveContext(ctx context.Context) error {
	if t.path == "" {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.pending) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(t.path), 0o755); err != nil {
		return fmt.Errorf("save tool quality: %w", err)
	}
	unlock, err := lockFile(ctx, t.path+".lock")
	if err != nil {
		return fmt.Errorf("save tool quality: %w", err)
	}
	defer unlock()
	merged, err := load(t.path)
	if err != nil {
		merged = map[string]*Stats{}
		for k, s := range t.byKey {
			merged[k] = s
		}
	} else {
		keys := make([]string, 0, len(t.pending))
		for k := range t.pending {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			for _, o := range t.pending[k] {
				apply(merged, k, o)
			}
		}
	}
	data, err := json.MarshalIndent(merged, "", " ")
	if err != nil {
		return fmt.Errorf("encode tool quality: %w", err)
	}
	if err := workspace.WriteFileAtomic(t.path, data, 0o644); err != nil {
		return fmt.Errorf("save tool quality: %w", err)
	}
	t.byKey = merged
	t.pending = map[string][]outcome{}
	return nil
}
