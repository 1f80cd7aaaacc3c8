//go:build unix

package search

import (
	"fmt"
	"syscall"
)

// readFile reads the file at abs into buf's memory, growing it as needed,
// and returns the bytes read. It calls open, read and close directly: an
// os.File costs four fcntl calls, an epoll registration and a finalizer
// per file, more than the search of a typical source file.
func readFile(abs string, buf *[]byte) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(abs, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", abs, err)
	}
	defer syscall.Close(fd)
	b := (*buf)[:cap(*buf)]
	if len(b) < minReadBuffer {
		b = make([]byte, minReadBuffer)
	}
	n := 0
	for {
		if n == len(b) {
			b = grow(b, fd)
		}
		k, err := syscall.Read(fd, b[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			*buf = b
			return nil, fmt.Errorf("read %s: %w", abs, err)
		}
		if k == 0 {
			*buf = b
			return b[:n], nil
		}
		n += k
	}
}

// grow returns a larger buffer holding b: large enough for the whole file
// as fstat sizes it now, and at least twice as large when that fails or the
// file has grown past it. Growing once to the size avoids copying a large
// file several times and faulting in the discarded buffers.
func grow(b []byte, fd int) []byte {
	want := 2 * len(b)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil && st.Size < 1<<40 && int(st.Size) >= len(b) {
		want = max(want, int(st.Size)+1) // +1: room for the read that sees the end
	}
	nb := make([]byte, want)
	copy(nb, b)
	return nb
}
