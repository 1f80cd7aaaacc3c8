//go:build !unix

package search

import (
	"errors"
	"io"
	"os"
)

// rawFile is a file open for reading.
type rawFile struct{ f *os.File }

func openFile(abs string) (rawFile, error) {
	f, err := os.Open(abs)
	return rawFile{f}, err
}

// read reads into b; it returns 0 and no error at the end of the file.
func (f rawFile) read(b []byte) (int, error) {
	n, err := f.f.Read(b)
	if errors.Is(err, io.EOF) {
		return n, nil
	}
	return n, err
}

func (f rawFile) close() { f.f.Close() }
