package shell

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/reach-agent/reach/tools"
)

// Live output limits: at most one report per interval, of at most
// LiveChunk bytes of output.
const (
	DefaultProgressInterval = 100 * time.Millisecond
	LiveChunk               = 4 << 10
)

// LiveWriter is a Writer that passes a command's output on to a
// tools.Progress as it arrives. The first write after a quiet spell is
// reported at once; later ones are merged and reported at most once per
// interval, in whole lines, unless a line stays unfinished for a whole
// interval (a prompt, a progress bar). When more than max bytes arrive
// between two reports only the last max bytes (from a line start) are
// reported, after a line saying how much was skipped: the live view is a
// preview, whoever needs the output keeps it elsewhere. Memory stays under
// about 2*max plus one write, whatever the command prints. Close it once
// the writing is over.
type LiveWriter struct {
	report   tools.Progress
	interval time.Duration
	max      int

	mu           sync.Mutex
	buf          []byte    // output not reported yet
	skipped      int64     // bytes dropped since the last report
	partialSince time.Time // when buf's unfinished last line began; zero if buf ends a line
	last         time.Time // of the last report
	midLine      bool      // the last report ended inside a line
	timer        *time.Timer
	closed       bool
}

// NewLiveWriter reports to report at most every interval, at most max
// bytes at a time; 0 means DefaultProgressInterval and LiveChunk.
func NewLiveWriter(report tools.Progress, interval time.Duration, max int) *LiveWriter {
	if interval <= 0 {
		interval = DefaultProgressInterval
	}
	if max <= 0 {
		max = LiveChunk
	}
	return &LiveWriter{report: report, interval: interval, max: max}
}

// Write buffers p and reports what is due (on the caller's goroutine, so
// a report must not block for long). It never fails: a closed view
// cannot break the command's output.
func (l *LiveWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || len(p) == 0 {
		return len(p), nil
	}
	endedLine := len(l.buf) == 0 || l.buf[len(l.buf)-1] == '\n'
	l.buf = append(l.buf, p...)
	switch {
	case p[len(p)-1] == '\n':
		l.partialSince = time.Time{}
	case endedLine || bytes.IndexByte(p, '\n') >= 0:
		l.partialSince = time.Now()
	}
	if len(l.buf) > 2*l.max {
		l.drop(len(l.buf) - l.max)
	}
	if l.timer != nil {
		return len(p), nil // a report is already due
	}
	if wait := l.interval - time.Since(l.last); wait > 0 {
		l.timer = time.AfterFunc(wait, l.tick)
		return len(p), nil
	}
	l.flush(false)
	if len(l.buf) > 0 {
		l.timer = time.AfterFunc(l.interval, l.tick)
	}
	return len(p), nil
}

func (l *LiveWriter) tick() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.timer = nil
	if l.closed {
		return
	}
	l.flush(false)
	if len(l.buf) > 0 {
		l.timer = time.AfterFunc(l.interval, l.tick)
	}
}

// Close reports what is left and stops: the Progress is not called once
// Close has returned.
func (l *LiveWriter) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.flush(true)
	l.closed = true
}

// drop discards the oldest n bytes of buf, and then the rest of a line
// they cut, so that buf starts a line when it can. It returns how many
// bytes went.
func (l *LiveWriter) drop(n int) int {
	if i := bytes.IndexByte(l.buf[n:], '\n'); i >= 0 && n+i+1 < len(l.buf) {
		n += i + 1
	}
	l.skipped += int64(n)
	l.buf = l.buf[:copy(l.buf, l.buf[n:])]
	return n
}

// flush reports buf's complete lines, and its unfinished last line too
// when all is set or the line has waited a whole interval. l.mu is held.
func (l *LiveWriter) flush(all bool) {
	end := len(l.buf)
	if !all && end > 0 && l.buf[end-1] != '\n' {
		if !l.partialSince.IsZero() && time.Since(l.partialSince) >= l.interval {
			end = runeBoundary(l.buf, end)
		} else {
			end = bytes.LastIndexByte(l.buf, '\n') + 1
		}
	}
	if end > l.max {
		end -= l.drop(end - l.max)
	}
	if end <= 0 && l.skipped == 0 {
		return
	}
	end = max(end, 0)
	text := strings.ToValidUTF8(string(l.buf[:end]), "\uFFFD")
	if l.skipped > 0 {
		mark := fmt.Sprintf("[… %d bytes of output skipped]\n", l.skipped)
		if l.midLine {
			mark = "\n" + mark
		}
		text = mark + text
		l.skipped = 0
	}
	l.buf = l.buf[:copy(l.buf, l.buf[end:])]
	if len(l.buf) == 0 {
		l.partialSince = time.Time{}
	}
	l.last = time.Now()
	l.midLine = !strings.HasSuffix(text, "\n")
	l.report(text)
}

// runeBoundary backs end off so that b[:end] does not end inside a UTF-8
// sequence.
func runeBoundary(b []byte, end int) int {
	for k := end - 1; k >= 0 && k >= end-utf8.UTFMax; k-- {
		if utf8.RuneStart(b[k]) {
			if !utf8.FullRune(b[k:end]) {
				return k
			}
			return end
		}
	}
	return end
}
