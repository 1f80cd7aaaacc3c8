//go:build !unix

package search

import (
	"fmt"
	"io"
	"os"
)

// readFile reads the file at abs into buf's memory, growing it as needed,
// and returns the bytes read.
func readFile(abs string, buf *[]byte) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := (*buf)[:cap(*buf)]
	if len(b) < minReadBuffer {
		b = make([]byte, minReadBuffer)
	}
	n := 0
	for {
		if n == len(b) {
			b = append(b, make([]byte, len(b))...)
			b = b[:cap(b)]
		}
		k, err := f.Read(b[n:])
		n += k
		if err == io.EOF {
			*buf = b
			return b[:n], nil
		}
		if err != nil {
			*buf = b
			return nil, fmt.Errorf("read %s: %w", abs, err)
		}
	}
}
