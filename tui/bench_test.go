package tui

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reach-agent/reach/diffview"
	"github.com/reach-agent/reach/events"
)

// tokens splits text into pieces of about four bytes, like a model's.
func tokens(text string, n int) []string {
	out := make([]string, 0, n)
	for len(out) < n {
		for i := 0; i < len(text) && len(out) < n; i += 4 {
			out = append(out, text[i:min(i+4, len(text))])
		}
	}
	return out
}

// frameStats times the work of each frame (applying the queued events and
// drawing the screen).
type frameStats struct {
	frames int
	total  time.Duration
	worst  time.Duration
	// worstAt is the index of the worst frame: the first frame pays for
	// glamour's renderer set-up, later ones should not.
	worstAt int
	all     []time.Duration
}

func (f *frameStats) add(d time.Duration) {
	if d > f.worst {
		f.worst, f.worstAt = d, f.frames
	}
	f.frames++
	f.total += d
	f.all = append(f.all, d)
}

// p99 is the 99th percentile frame time.
func (f *frameStats) p99() time.Duration {
	if len(f.all) == 0 {
		return 0
	}
	s := slices.Clone(f.all)
	slices.Sort(s)
	return s[len(s)*99/100]
}

func (f *frameStats) frame(h *harness, evs ...events.Event) {
	start := time.Now()
	h.feed(evs...)
	h.m.render()
	f.add(time.Since(start))
}

func (f *frameStats) report(b *testing.B, toks int) {
	b.ReportMetric(float64(f.frames)/float64(b.N), "frames/op")
	b.ReportMetric(float64(f.total.Nanoseconds())/float64(b.N*toks), "ns/token")
	b.ReportMetric(float64(f.worst.Microseconds())/1000, "worst-frame-ms")
	b.ReportMetric(float64(f.p99().Microseconds())/1000, "p99-frame-ms")
	b.ReportMetric(float64(f.worstAt), "worst-frame-index")
}

// BenchmarkStream20kTokens streams 20 000 tokens at full speed into one
// message, drawing a frame after every token: the worst case, with no
// coalescing of deltas.
func BenchmarkStream20kTokens(b *testing.B) {
	toks := tokens(longAnswer(60), 20000)
	var st frameStats
	b.ReportAllocs()
	for b.Loop() {
		h := newHarness(&testing.T{}, 120, 40)
		h.feed(events.Phase{Name: "research"})
		for _, tok := range toks {
			st.frame(h, events.TextDelta{Phase: "research", Text: tok})
		}
		st.frame(h, events.Message{Phase: "research", Text: strings.Join(toks, "")})
	}
	st.report(b, len(toks))
}

// BenchmarkStream20kTokensPaced is the same stream with the UI's pacing:
// tokens arrive every 0.5 ms of model time and a frame is drawn every
// 16 ms, so about 32 tokens share a frame.
func BenchmarkStream20kTokensPaced(b *testing.B) {
	toks := tokens(longAnswer(60), 20000)
	const perFrame = int(frameInterval / (500 * time.Microsecond))
	var st frameStats
	b.ReportAllocs()
	for b.Loop() {
		h := newHarness(&testing.T{}, 120, 40)
		h.feed(events.Phase{Name: "research"})
		for i := 0; i < len(toks); i += perFrame {
			st.frame(h, events.TextDelta{Phase: "research", Text: strings.Join(toks[i:min(i+perFrame, len(toks))], "")})
		}
		st.frame(h, events.Message{Phase: "research", Text: strings.Join(toks, "")})
	}
	st.report(b, len(toks))
}

// session1000 feeds a session of 1000 messages: streamed answers, tool
// calls with outputs and diffs, drawing a frame after each event.
func session1000(h *harness, st *frameStats) {
	answer := longAnswer(2)
	old := strings.Repeat("func f() int { return 1 }\n", 30)
	diff := diffview.Unified("a/f.go", "b/f.go", old, strings.Replace(old, "1", "2", 5), 3)
	output := strings.Repeat("main.go:12: some matching line of code here\n", 40)
	h.feed(events.Init{Model: "m", Task: "a long session", Time: t0})
	for i := range 1000 {
		id := strconv.Itoa(i)
		switch i % 4 {
		case 0:
			for _, tok := range tokens(answer, len(answer)/4) {
				h.queue = append(h.queue, events.TextDelta{Phase: "research", Text: tok})
			}
			st.frame(h, events.Message{Phase: "research", Text: answer})
		case 1:
			st.frame(h, events.ToolCall{ID: id, Name: "ripgrep_search", Arguments: `{"pattern":"x"}`},
				events.ToolResult{ID: id, Name: "ripgrep_search", Success: true, Output: output})
		case 2:
			st.frame(h, events.ToolCall{ID: id, Name: "file_str_replace", Arguments: `{"filepath":"f.go"}`},
				events.ToolResult{ID: id, Name: "file_str_replace", Success: true, Output: diff})
		case 3:
			st.frame(h, events.ToolCall{ID: id, Name: "run_shell_command", Arguments: `{"command":"go test ./..."}`},
				events.ToolResult{ID: id, Name: "run_shell_command", Success: true, Output: output})
		}
	}
}

// BenchmarkSession1000Messages reports the heap held by a 1000-message
// session after every message was drawn and the whole history scrolled
// through (so every block holds its rendering), the worst frame, and the
// process's peak resident memory.
func BenchmarkSession1000Messages(b *testing.B) {
	var st frameStats
	var heap uint64
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		h := newHarness(&testing.T{}, 120, 40)
		session1000(h, &st)
		for range 2000 { // page up through everything
			start := time.Now()
			h.send(tea.KeyPressMsg{Code: tea.KeyPgUp})
			h.m.render()
			st.add(time.Since(start))
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
		runtime.KeepAlive(h)
	}
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
	b.ReportMetric(float64(st.worst.Microseconds())/1000, "worst-frame-ms")
	b.ReportMetric(float64(st.p99().Microseconds())/1000, "p99-frame-ms")
	b.ReportMetric(peakRSSMB(), "peak-rss-MB")
}

// peakRSSMB is the process's high-water resident set (Linux), or 0.
func peakRSSMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkLiveShell100kLines feeds a running command's 100 000 output
// lines to its panel, drawing a frame after each event: "4KiB-chunks" is
// what the shell tool's rate limiter sends (at most one such chunk per
// 100 ms); "per-line" is the worst case of one event per line with no
// merging, over the first 10 000 lines.
func BenchmarkLiveShell100kLines(b *testing.B) {
	const n = 100_000
	var all strings.Builder
	for i := range n {
		fmt.Fprintf(&all, "=== RUN   TestSomething/case_%06d\n", i)
	}
	text := all.String()
	perLine := strings.SplitAfter(text, "\n")[:n]
	var chunks []string
	for i := 0; i < len(text); {
		end := min(i+4096, len(text))
		if j := strings.LastIndexByte(text[i:end], '\n'); j >= 0 && end < len(text) {
			end = i + j + 1
		}
		chunks = append(chunks, text[i:end])
		i = end
	}
	for _, bc := range []struct {
		name   string
		events []string
	}{{"4KiB-chunks", chunks}, {"per-line", perLine[:10_000]}} {
		b.Run(bc.name, func(b *testing.B) {
			var st frameStats
			b.ReportAllocs()
			for b.Loop() {
				h := newHarness(&testing.T{}, 120, 40)
				h.feed(events.Phase{Name: "implementation"}, events.ToolCall{ID: "s", Name: "run_shell_command", Arguments: `{"command":"go test -v ./..."}`})
				for _, c := range bc.events {
					st.frame(h, events.ToolOutput{ID: "s", Text: c})
				}
				st.frame(h, events.ToolResult{ID: "s", Name: "run_shell_command", Success: true, Output: strings.Join(perLine[n-200:], "")})
			}
			b.ReportMetric(float64(st.total.Nanoseconds())/float64(st.frames), "ns/frame")
			b.ReportMetric(float64(st.frames)/float64(b.N), "frames/op")
			b.ReportMetric(float64(st.worst.Microseconds())/1000, "worst-frame-ms")
			b.ReportMetric(float64(st.p99().Microseconds())/1000, "p99-frame-ms")
		})
	}
}
