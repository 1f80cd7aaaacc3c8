package shell

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// reports collects what a LiveWriter reports.
type reports struct {
	mu   sync.Mutex
	got  []string
	sent chan struct{} // one signal per report, for the timer tests
}

func newReports() *reports { return &reports{sent: make(chan struct{}, 1000)} }

func (r *reports) add(text string) {
	r.mu.Lock()
	r.got = append(r.got, text)
	r.mu.Unlock()
	r.sent <- struct{}{}
}

func (r *reports) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// wait waits for the n-th report (a deadline, not a timing assertion).
func (r *reports) wait(t *testing.T, n int) {
	t.Helper()
	for len(r.all()) < n {
		select {
		case <-r.sent:
		case <-time.After(5 * time.Second):
			t.Fatalf("report %d never came; got %q", n, r.all())
		}
	}
}

func TestLiveOutputWithoutTimer(t *testing.T) {
	t.Parallel()
	many := make([]string, 10000)
	for i := range many {
		many[i] = fmt.Sprintf("line %d\n", i)
	}
	// A one-hour interval: after the first write only Close reports, so
	// what the writes merge into is deterministic.
	tests := []struct {
		name   string
		writes []string
		want   []string
	}{
		{"first line at once, the rest merged", []string{"a\n", "b\n", "c\n"}, []string{"a\n", "b\nc\n"}},
		{"lines split across writes are joined", []string{"x\nhel", "lo\nwor", "ld\n"}, []string{"x\n", "hello\nworld\n"}},
		{"an unfinished line waits for Close", []string{"prompt> "}, []string{"prompt> "}},
		{"an unfinished last line stays back", []string{"one\ntw", "o\nthr"}, []string{"one\n", "two\nthr"}},
		{"nothing written, nothing reported", nil, nil},
		{"empty writes report nothing", []string{"", ""}, nil},
		{"a flood keeps the last lines and says what it skipped", many,
			[]string{"line 0\n", fmt.Sprintf("[… %d bytes of output skipped]\n", skippedOf(many[1:], LiveChunk)) + keptOf(many[1:], LiveChunk)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newReports()
			l := NewLiveWriter(r.add, time.Hour, LiveChunk)
			for _, w := range tt.writes {
				if n, err := l.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			l.Close()
			if n, err := l.Write([]byte("after close\n")); n != 12 || err != nil {
				t.Fatalf("Write after Close = %d, %v", n, err)
			}
			l.Close()
			got := r.all()
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("reports\n%q\nwant\n%q", clipReports(got), clipReports(tt.want))
			}
			for _, g := range got {
				if len(g) > LiveChunk+64 {
					t.Errorf("a report of %d bytes, over the %d byte chunk", len(g), LiveChunk)
				}
			}
		})
	}
}

// keptOf is the whole lines of at most max bytes at the end of lines.
func keptOf(lines []string, max int) string {
	size, i := 0, len(lines)
	for i > 0 && size+len(lines[i-1]) <= max {
		size += len(lines[i-1])
		i--
	}
	return strings.Join(lines[i:], "")
}

func skippedOf(lines []string, max int) int {
	return len(strings.Join(lines, "")) - len(keptOf(lines, max))
}

func clipReports(rs []string) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		if len(r) > 80 {
			r = r[:40] + "…" + r[len(r)-40:]
		}
		out[i] = r
	}
	return out
}

func TestLiveOutputTimer(t *testing.T) {
	t.Parallel()
	t.Run("merged lines are reported without waiting for more output", func(t *testing.T) {
		t.Parallel()
		r := newReports()
		l := NewLiveWriter(r.add, 20*time.Millisecond, LiveChunk)
		defer l.Close()
		l.Write([]byte("a\n"))
		l.Write([]byte("b\n"))
		l.Write([]byte("c\n"))
		r.wait(t, 2)
		if got := r.all(); strings.Join(got, "|") != "a\n|b\nc\n" {
			t.Errorf("reports %q", got)
		}
	})
	t.Run("an unfinished line is reported once it has waited an interval", func(t *testing.T) {
		t.Parallel()
		r := newReports()
		l := NewLiveWriter(r.add, 20*time.Millisecond, LiveChunk)
		defer l.Close()
		l.Write([]byte("Continue? [y/N] "))
		r.wait(t, 1)
		l.Write([]byte("y\n"))
		r.wait(t, 2)
		if got := r.all(); strings.Join(got, "|") != "Continue? [y/N] |y\n" {
			t.Errorf("reports %q", got)
		}
	})
	t.Run("no report after Close", func(t *testing.T) {
		t.Parallel()
		r := newReports()
		l := NewLiveWriter(r.add, 10*time.Millisecond, LiveChunk)
		l.Write([]byte("a\n"))
		l.Write([]byte("b\n")) // arms the timer
		l.Close()
		n := len(r.all())
		time.Sleep(50 * time.Millisecond) // past the timer
		if got := r.all(); len(got) != n || strings.Join(got, "") != "a\nb\n" {
			t.Errorf("reports %q after Close, had %d", got, n)
		}
	})
}

func TestRuneBoundary(t *testing.T) {
	t.Parallel()
	s := []byte("aé€😀")
	tests := []struct {
		end, want int
	}{
		{len(s), len(s)},
		{len(s) - 1, 6}, // inside 😀
		{len(s) - 3, 6},
		{5, 3}, // inside €
		{3, 3},
		{2, 1}, // inside é
		{1, 1},
		{0, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.end), func(t *testing.T) {
			if got := runeBoundary(s, tt.end); got != tt.want {
				t.Errorf("runeBoundary(%d) = %d, want %d", tt.end, got, tt.want)
			}
		})
	}
}
