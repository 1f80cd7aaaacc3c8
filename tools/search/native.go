package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/reach-agent/reach/tools/walk"
)

// nativeIgnoreFiles are the ignore files rg reads, read by the native
// search too.
var nativeIgnoreFiles = []string{".gitignore", ".ignore", ".rgignore"}

// lineMatcher finds the lines of a buffer that match a pattern. It looks
// for a literal every match must contain with bytes.Index first and runs
// the regexp only on the lines that hold one.
type lineMatcher struct {
	re    *regexp.Regexp
	req   requirement
	lits  [][]byte // req.lits as bytes
	rare  []int    // index of each literal's rarest byte
	set   *byteSet // without a literal: bytes one of which a match holds
	exact bool     // the pattern is req.lits[0] itself: no regexp to run
}

// compileMatcher builds a matcher, or returns the parse error in words the
// model can act on.
func compileMatcher(pattern string, fixed, caseSensitive bool) (*lineMatcher, error) {
	expr := pattern
	if fixed {
		expr = regexp.QuoteMeta(pattern)
	}
	flags := syntax.Perl
	if !caseSensitive {
		flags |= syntax.FoldCase
	}
	parsed, err := syntax.Parse(expr, flags)
	if err != nil {
		return nil, fmt.Errorf("regex parse error: %w", err)
	}
	prefix := "(?m)"
	if !caseSensitive {
		prefix = "(?mi)"
	}
	re, err := regexp.Compile(prefix + expr)
	if err != nil {
		return nil, fmt.Errorf("regex parse error: %w", err)
	}
	simple := parsed.Simplify()
	m := &lineMatcher{re: re, req: requiredLiterals(simple)}
	lits := m.req.lits
	if m.req.fold {
		lits = append(lits[:len(lits):len(lits)], nonASCIIFolds(lits)...)
	}
	for _, l := range lits {
		m.lits = append(m.lits, []byte(l))
		m.rare = append(m.rare, rarestByte([]byte(l)))
	}
	if len(m.lits) == 0 {
		m.set = requiredBytes(simple)
	}
	m.exact = isPlainLiteral(simple) && len(m.req.lits) == 1 && !strings.Contains(m.req.lits[0], "\n")
	return m, nil
}

// lineSpan is one matching line: its number and its byte range.
type lineSpan struct{ num, start, end int }

// matchLines returns the matching lines of data, in order. scratch is
// reused for the lower-cased copy a case-insensitive literal needs.
func (m *lineMatcher) matchLines(data []byte, scratch *[]byte) []lineSpan {
	if m.set != nil {
		return m.byteSetLines(data)
	}
	if len(m.req.lits) == 0 {
		return m.everyLine(data)
	}
	hay := data
	if m.req.fold {
		// Non-ASCII bytes are left as they are: the runes that fold to an
		// ASCII letter are looked for as literals of their own.
		hay = lowerASCII(data, scratch)
	}
	var out []lineSpan
	next := make([]int, len(m.lits)) // cached next position of each literal
	for i := range next {
		next[i] = -2
	}
	pos, counted, lineNo := 0, 0, 1
	for pos <= len(data) {
		at := -1
		for k, lit := range m.lits {
			if next[k] != -1 && next[k] < pos {
				j := indexRare(hay[pos:], lit, m.rare[k])
				if j >= 0 {
					j += pos
				}
				next[k] = j
			}
			if next[k] >= 0 && (at < 0 || next[k] < at) {
				at = next[k]
			}
		}
		if at < 0 {
			break
		}
		start := bytes.LastIndexByte(data[:at], '\n') + 1
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += at
		}
		if m.exact || m.re.Match(trimCR(data[start:end])) {
			lineNo += bytes.Count(data[counted:start], []byte{'\n'})
			counted = start
			out = append(out, lineSpan{lineNo, start, end})
		}
		pos = end + 1
	}
	return out
}

// byteSetLines runs the regexp only on lines holding a byte of m.set.
func (m *lineMatcher) byteSetLines(data []byte) []lineSpan {
	var out []lineSpan
	set := m.set
	counted, lineNo := 0, 1
	for i := 0; i < len(data); i++ {
		if !set[data[i]] {
			continue
		}
		start := bytes.LastIndexByte(data[:i], '\n') + 1
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += i
		}
		if m.re.Match(trimCR(data[start:end])) {
			lineNo += bytes.Count(data[counted:start], []byte{'\n'})
			counted = start
			out = append(out, lineSpan{lineNo, start, end})
		}
		i = end
	}
	return out
}

// everyLine runs the regexp on each line.
func (m *lineMatcher) everyLine(data []byte) []lineSpan {
	var out []lineSpan
	lineNo := 0
	for start := 0; start < len(data); {
		lineNo++
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		if m.re.Match(trimCR(data[start:end])) {
			out = append(out, lineSpan{lineNo, start, end})
		}
		start = end + 1
	}
	return out
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// lowerASCII returns a copy of b, in scratch's memory, with A-Z lower-cased
// and every other byte as it is. It works eight bytes at a time.
func lowerASCII(b []byte, scratch *[]byte) []byte {
	if cap(*scratch) < len(b) {
		*scratch = make([]byte, len(b))
	}
	out := (*scratch)[:len(b)]
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		low7 := w &^ highs
		// The high bit of each byte of upper is set where the byte is A-Z.
		upper := (low7 + (0x80-'A')*ones) &^ (low7 + (0x80-'Z'-1)*ones) &^ w & highs
		binary.LittleEndian.PutUint64(out[i:], w|upper>>2)
	}
	for ; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// nativeSearch walks the tree in parallel and searches each file.
func nativeSearch(ctx context.Context, rootDir string, q query) (*results, error) {
	m, err := compileMatcher(q.Pattern, q.Fixed, q.CaseSensitive)
	if err != nil {
		return nil, err
	}
	opts := walk.Options{
		Hidden:      q.Hidden,
		FollowLinks: q.Follow,
		Exclude:     q.Exclude,
		IgnoreFiles: nativeIgnoreFiles,
	}
	res := newResults(q.Before > 0 || q.After > 0)
	var mu sync.Mutex
	var buffers bufferStack
	err = walk.Walk(ctx, rootDir, q.Paths, opts, func(e walk.Entry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(q.TypeGlobs) > 0 && !matchesAny(q.TypeGlobs, path.Base(e.Rel)) {
			return nil
		}
		bufs := buffers.get()
		lines := searchFile(e.Abs, m, q.Before, q.After, bufs)
		buffers.put(bufs)
		if len(lines) == 0 {
			return nil
		}
		mu.Lock()
		res.add(e.Rel, lines)
		mu.Unlock()
		return nil
	})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, fmt.Errorf("search %s: %w", rootDir, err)
	}
	return res, nil
}

// fileBuffers are one worker's reusable memory.
type fileBuffers struct{ data, lower []byte }

// bufferStack lends each concurrent file search its own fileBuffers and
// keeps them for the next file. Reading thousands of files into fresh memory
// costs more in page faults and GC than the search itself; and unlike a
// sync.Pool the stack is not emptied by each GC, so a buffer grown for a
// large file is not allocated again.
type bufferStack struct {
	mu   sync.Mutex
	free []*fileBuffers
}

func (s *bufferStack) get() *fileBuffers {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.free); n > 0 {
		b := s.free[n-1]
		s.free = s.free[:n-1]
		return b
	}
	return new(fileBuffers)
}

func (s *bufferStack) put(b *fileBuffers) {
	s.mu.Lock()
	s.free = append(s.free, b)
	s.mu.Unlock()
}

// searchFile returns the output lines (matches and context) of one file;
// binary and unreadable files have none, as with rg.
func searchFile(abs string, m *lineMatcher, before, after int, bufs *fileBuffers) []outLine {
	if before == 0 && after == 0 {
		return searchChunks(abs, m, bufs)
	}
	// Context lines may lie in an earlier chunk: read the whole file.
	data, err := readFile(abs, &bufs.data)
	if err != nil || bytes.IndexByte(data, 0) >= 0 {
		return nil
	}
	spans := m.matchLines(data, &bufs.lower)
	if len(spans) == 0 {
		return nil
	}
	return withContext(data, spans, before, after)
}

// withContext adds up to before/after lines around each match.
func withContext(data []byte, spans []lineSpan, before, after int) []outLine {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	line := func(n int) string { // n is 1-based
		s := starts[n-1]
		e := len(data)
		if n < len(starts) {
			e = starts[n] - 1
		} else if len(data) > 0 && data[e-1] == '\n' {
			e--
		}
		return string(trimCR(data[s:e]))
	}
	isMatch := make(map[int]bool, len(spans))
	for _, s := range spans {
		isMatch[s.num] = true
	}
	var out []outLine
	last := 0 // last line number emitted
	for _, s := range spans {
		from := max(s.num-before, last+1, 1)
		to := min(s.num+after, len(starts))
		for n := from; n <= to; n++ {
			out = append(out, outLine{Num: n, Text: line(n), Match: isMatch[n]})
			last = n
		}
	}
	return out
}
