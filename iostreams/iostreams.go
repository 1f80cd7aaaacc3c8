// Package iostreams carries a command's standard streams and what is known
// about them (terminal or not, colour), so every command runs in tests with
// fake streams instead of os.Stdout.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams is handed to every command.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY  bool
	stdoutTTY bool
	stderrTTY bool
	noColor   bool
}

// System returns the process's real streams.
func System() *IOStreams {
	_, noColor := os.LookupEnv("NO_COLOR")
	return &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		stdinTTY:  isTerminal(os.Stdin),
		stdoutTTY: isTerminal(os.Stdout),
		stderrTTY: isTerminal(os.Stderr),
		noColor:   noColor,
	}
}

// Test returns streams backed by buffers: stdin, stdout, stderr.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut, noColor: true}, in, out, errOut
}

// IsStdinTTY reports whether standard input is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// IsStdoutTTY reports whether standard output is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether standard error is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// Interactive reports whether a human can answer prompts: stdin and
// stderr (where prompts are written) are both terminals.
func (s *IOStreams) Interactive() bool { return s.stdinTTY && s.stderrTTY }

// ColorEnabled reports whether colour may be used on stdout.
func (s *IOStreams) ColorEnabled() bool { return s.stdoutTTY && !s.noColor }

// SetTTY overrides terminal detection, for tests.
func (s *IOStreams) SetTTY(stdin, stdout, stderr bool) {
	s.stdinTTY, s.stdoutTTY, s.stderrTTY = stdin, stdout, stderr
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
