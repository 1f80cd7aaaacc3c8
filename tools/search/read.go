package search

import (
	"bytes"
	"fmt"
)

// chunkSize is how much of a file the native search reads and searches at a
// time. Nearly all source files fit in one chunk; a larger file is searched
// chunk by chunk in the same memory, so that no buffer grows with file size
// (only with the longest line).
const chunkSize = 256 << 10

// readFile reads the whole file at abs into buf's memory, growing it as
// needed, and returns the bytes read.
func readFile(abs string, buf *[]byte) ([]byte, error) {
	f, err := openFile(abs)
	if err != nil {
		return nil, err
	}
	defer f.close()
	b := (*buf)[:cap(*buf)]
	if len(b) < chunkSize {
		b = make([]byte, chunkSize)
	}
	defer func() { *buf = b }()
	n := 0
	for {
		if n == len(b) {
			b = growBuffer(b)
		}
		k, err := f.read(b[n:])
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", abs, err)
		}
		if k == 0 {
			return b[:n], nil
		}
		n += k
	}
}

// growBuffer returns a buffer twice as large holding b's bytes.
func growBuffer(b []byte) []byte {
	nb := make([]byte, 2*len(b))
	copy(nb, b)
	return nb
}

// searchChunks returns the matching lines of the file at abs, read a chunk
// at a time into bufs.data (of chunkSize when it is empty). A chunk is
// searched up to its last newline; the unfinished line is carried into the
// next. A file holding a NUL byte anywhere is binary and has no matching
// lines, as with rg; an unreadable file has none either.
func searchChunks(abs string, m *lineMatcher, bufs *fileBuffers) []outLine {
	f, err := openFile(abs)
	if err != nil {
		return nil
	}
	defer f.close()
	b := bufs.data[:cap(bufs.data)] // its size is the chunk size
	if len(b) == 0 {
		b = make([]byte, chunkSize)
	}
	defer func() { bufs.data = b }()
	var out []outLine
	end, lines := 0, 0 // bytes in b; lines before b[0]
	for {
		// Fill the buffer, or read to the end of the file. A short read
		// is not taken as the end: only a read of nothing is.
		k, err := f.read(b[end:])
		if err != nil {
			return nil
		}
		if bytes.IndexByte(b[end:end+k], 0) >= 0 {
			return nil
		}
		end += k
		if k == 0 { // the end of the file: every line is complete
			return appendMatches(out, m, b[:end], lines, &bufs.lower)
		}
		if end < len(b) {
			continue
		}
		cut := bytes.LastIndexByte(b, '\n') + 1
		if cut == 0 { // one line fills the buffer
			b = growBuffer(b)
			continue
		}
		out = appendMatches(out, m, b[:cut], lines, &bufs.lower)
		lines += bytes.Count(b[:cut], []byte{'\n'})
		end = copy(b, b[cut:end])
	}
}

// appendMatches appends the matching lines of data, whose first line is
// number lines+1, to out.
func appendMatches(out []outLine, m *lineMatcher, data []byte, lines int, scratch *[]byte) []outLine {
	for _, s := range m.matchLines(data, scratch) {
		out = append(out, outLine{Num: lines + s.num, Text: string(trimCR(data[s.start:s.end])), Match: true})
	}
	return out
}
