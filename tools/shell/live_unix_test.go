//go:build unix

package shell

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// watcher is a tools.Progress that also notices reports made after the
// run returned.
type watcher struct {
	mu     sync.Mutex
	chunks []string
	closed bool
	late   int
}

func (w *watcher) report(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		w.late++
	}
	w.chunks = append(w.chunks, text)
}

func (w *watcher) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
}

func (w *watcher) result() ([]string, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.chunks...), w.late
}

func TestRunReportsProgress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		command   string
		minChunks int  // reports that came separately
		whole     bool // the reports add up to the output
		skipped   bool // a flood: the reports skip and say so
	}{
		{"lines with pauses come one by one", "for i in 1 2 3; do echo line $i; sleep 0.2; done", 3, true, false},
		{"stdout and stderr in order", "echo out; sleep 0.2; echo err >&2; sleep 0.2; echo out2", 3, true, false},
		{"an unfinished line before a pause", "printf 'working... '; sleep 0.3; echo done", 2, true, false},
		{"no output", "true", 0, true, false},
		{"exit code kept", "echo bad; exit 3", 1, true, false},
		{"a flood is cut down", "seq 1 200000", 1, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := &Runner{ProgressInterval: 20 * time.Millisecond}
			plain, err := r.Run(context.Background(), tt.command, dir, time.Minute)
			if err != nil {
				t.Fatalf("Run without progress: %v", err)
			}
			w := &watcher{}
			out, err := r.Run(tools.WithProgress(context.Background(), w.report), tt.command, dir, time.Minute)
			w.close()
			if err != nil {
				t.Fatalf("Run with progress: %v", err)
			}
			if !reflect.DeepEqual(out, plain) {
				t.Errorf("watching changed the output:\n%+v\nwant\n%+v", out, plain)
			}
			chunks, late := w.result()
			if late > 0 {
				t.Errorf("%d reports after Run returned", late)
			}
			if len(chunks) < tt.minChunks {
				t.Errorf("%d reports, want at least %d: %q", len(chunks), tt.minChunks, chunks)
			}
			all := strings.Join(chunks, "")
			if tt.whole && all != out.Text {
				t.Errorf("reports add up to %q, want the output %q", all, out.Text)
			}
			if tt.skipped {
				if !strings.Contains(all, "bytes of output skipped]") || !strings.HasSuffix(all, "\n200000\n") {
					t.Errorf("flood reports do not skip or miss the end: %q…%q", all[:min(len(all), 80)], all[max(len(all)-80, 0):])
				}
				// At most one chunk per interval (plus the first and the
				// last): bounded by time, not by the 1.3 MB printed.
				if len(all) > len(chunks)*(LiveChunk+64) {
					t.Errorf("%d bytes in %d reports", len(all), len(chunks))
				}
			}
		})
	}
}

func TestRunProgressStopsOnCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{}
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err := (&Runner{ProgressInterval: 10 * time.Millisecond}).Run(tools.WithProgress(ctx, w.report), "while true; do echo tick; done", t.TempDir(), time.Minute)
	w.close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	time.Sleep(50 * time.Millisecond) // any stray timer would fire by now
	chunks, late := w.result()
	if late > 0 || len(chunks) == 0 {
		t.Errorf("%d reports, %d after Run returned", len(chunks), late)
	}
}

func TestShellToolResultUnchangedByProgress(t *testing.T) {
	t.Parallel()
	root, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tool := Tool(root, &Runner{ProgressInterval: 10 * time.Millisecond})
	for _, args := range []string{
		`{"command":"seq 1 1000"}`,
		`{"command":"echo bad >&2; exit 3"}`,
		`{"command":"echo started; sleep 100","timeout":1}`,
	} {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			want := tool.Run(context.Background(), json.RawMessage(args))
			w := &watcher{}
			got := tool.Run(tools.WithProgress(context.Background(), w.report), json.RawMessage(args))
			w.close()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("result with progress\n%+v\nwant\n%+v", got, want)
			}
			if chunks, _ := w.result(); len(chunks) == 0 {
				t.Error("nothing reported live")
			}
		})
	}
}

// BenchmarkRun100kLines runs `seq 1 100000` with and without a watcher:
// the cost of watching, and how much of the output reaches the watcher.
func BenchmarkRun100kLines(b *testing.B) {
	for _, watch := range []bool{false, true} {
		b.Run(map[bool]string{false: "unwatched", true: "watched"}[watch], func(b *testing.B) {
			dir := b.TempDir()
			var reports, bytes int
			for b.Loop() {
				ctx := context.Background()
				if watch {
					ctx = tools.WithProgress(ctx, func(text string) { reports++; bytes += len(text) })
				}
				if _, err := (&Runner{}).Run(ctx, "seq 1 100000", dir, time.Minute); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(reports)/float64(b.N), "reports/op")
			b.ReportMetric(float64(bytes)/float64(b.N), "reported-bytes/op")
		})
	}
}
