// Package edit provides the file-writing tools of the implementation phase,
// file_str_replace and put_complete_file_contents, confined to the project
// root and written atomically.
package edit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// Limits on the files the tools edit.
const (
	// MaxFileSize is the largest file file_str_replace edits.
	MaxFileSize = 10 << 20
	// binarySniff is how much of a file is searched for a NUL byte.
	binarySniff = 8 << 10
	// diffContext is the number of context lines in the diffs returned.
	diffContext = 3
	// newFileMode is the mode of files the tools create.
	newFileMode fs.FileMode = 0o644
)

// Options configures the edit tools. The zero value works.
type Options struct {
	// BeforeWrite, if set, runs before every write with the absolute path
	// about to change (a checkpoint, say). If it fails the write does not
	// happen and the model is told why.
	BeforeWrite func(ctx context.Context, absPath string) error
	// Protected lists top-level directories of the root that the tools
	// never write (default .git and .reach: repository internals and
	// reach's own state, whose corruption no checkpoint can undo).
	Protected []string
}

// DefaultProtected is used when Options.Protected is nil.
func DefaultProtected() []string { return []string{".git", ".reach"} }

// Tools returns file_str_replace and put_complete_file_contents working
// inside root.
func Tools(root *workspace.Root, opts Options) []tools.Tool {
	if opts.Protected == nil {
		opts.Protected = DefaultProtected()
	}
	e := &editor{root: root, opts: opts}
	return []tools.Tool{
		{Spec: strReplaceSpec(), Run: e.strReplace},
		{Spec: putSpec(), Run: e.putComplete},
	}
}

// editor holds what both tools share.
type editor struct {
	root *workspace.Root
	opts Options
}

// write runs the BeforeWrite hook, then prepare (if any), and writes data
// atomically. The error it returns is a message for the model.
func (e *editor) write(ctx context.Context, abs, shown string, data []byte, prepare func() error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("not writing %s: %w", shown, err)
	}
	if e.opts.BeforeWrite != nil {
		if err := e.opts.BeforeWrite(ctx, abs); err != nil {
			return fmt.Errorf("not writing %s: the checkpoint before the write failed: %w; the file was not changed", shown, err)
		}
	}
	if prepare != nil {
		if err := prepare(); err != nil {
			return err
		}
	}
	if err := workspace.WriteFileAtomic(abs, data, newFileMode); err != nil {
		return fmt.Errorf("%w; the file was not changed", err)
	}
	return nil
}

// readText reads an existing regular text file for editing, refusing
// directories, binary files and files over MaxFileSize with a message that
// names the path as the model gave it.
func readText(abs, shown string) (string, error) {
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("File not found: %s (to create a file, use put_complete_file_contents)", shown)
	}
	if err != nil {
		return "", fmt.Errorf("stat %s: %w", shown, err)
	}
	if st.IsDir() {
		return "", fmt.Errorf("%s is a directory, not a file; give the path of a file inside it", shown)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (%s); only regular files can be edited", shown, st.Mode().Type())
	}
	if st.Size() > MaxFileSize {
		return "", fmt.Errorf("%s is %s, larger than the %s limit for editing; edit it with a shell command (sed, a script) instead", shown, humanSize(st.Size()), humanSize(MaxFileSize))
	}
	f, err := os.Open(abs)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", shown, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", shown, err)
	}
	if len(data) > MaxFileSize {
		return "", fmt.Errorf("%s grew past the %s limit while being read; try again", shown, humanSize(MaxFileSize))
	}
	if isBinary(data) {
		return "", fmt.Errorf("%s looks like a binary file (it has a NUL byte in its first 8 KiB); only text files can be edited", shown)
	}
	return string(data), nil
}

// isBinary reports whether data has a NUL byte in its first 8 KiB.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

// resolve maps the model's path into the root; the error is a message
// for the model.
func (e *editor) resolve(p string) (string, error) {
	abs, err := e.root.Resolve(p)
	if err != nil {
		if errors.Is(err, workspace.ErrOutsideRoot) {
			return "", fmt.Errorf("refused: %v; only files inside the project root can be written", err)
		}
		return "", fmt.Errorf("invalid path %q: %v", p, err)
	}
	rel := e.root.Rel(abs)
	for _, dir := range e.opts.Protected {
		if rel == dir || strings.HasPrefix(rel, dir+"/") {
			return "", fmt.Errorf("refused: %s is inside %s/, which the file tools never write (repository internals and reach's state); edit project files instead", rel, dir)
		}
	}
	return abs, nil
}

// display returns the path to show the model: relative to the root.
func (e *editor) display(abs string) string {
	return e.root.Rel(abs)
}

// quoteShort shows s as RA.Aid does in messages: the first 30 characters
// and "..." when it is longer.
func quoteShort(s string) string {
	const n = 30
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "..."
}

// plural returns "1 occurrence" or "N occurrences".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// lineEnding describes a file's newline convention.
type lineEnding int

const (
	lf lineEnding = iota
	crlf
)

// detectEOL returns crlf when most of the file's newlines are CRLF.
func detectEOL(s string) lineEnding {
	all := strings.Count(s, "\n")
	windows := strings.Count(s, "\r\n")
	if windows > 0 && windows*2 >= all {
		return crlf
	}
	return lf
}

// withEOL rewrites every newline of s to the given convention.
func withEOL(s string, eol lineEnding) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if eol == crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}
