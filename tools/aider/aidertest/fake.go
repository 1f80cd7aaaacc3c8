// Package aidertest writes a fake aider executable for tests: a shell
// script that records its arguments and edits the files it is given.
package aidertest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fake is a fake aider installed in Dir (put Dir on PATH, or run Path).
type Fake struct {
	Dir  string // the directory holding the executable named "aider"
	Path string // Dir/aider
	log  string
}

// Options say what the fake does besides recording its arguments.
type Options struct {
	// From and To, when From is set, replace every From with To (sed
	// basic regex, '|' not allowed) in each argument after the -m message
	// that names an existing file.
	From, To string
	// Output is printed on stdout before exiting.
	Output string
	// ExitCode is the status the fake exits with.
	ExitCode int
	// Sleep, in seconds, is slept before exiting (for timeouts).
	Sleep int
}

// New writes the fake into a fresh temporary directory. `aider --version`
// prints "aider 0.0.0-fake" and records nothing.
func New(t testing.TB, opts Options) *Fake {
	t.Helper()
	if strings.ContainsAny(opts.From+opts.To, "|'\n") {
		t.Fatalf("aidertest: From and To may not contain |, ' or a newline")
	}
	dir := t.TempDir()
	f := &Fake{Dir: dir, Path: filepath.Join(dir, "aider"), log: filepath.Join(dir, "argv.log")}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "if [ \"$1\" = --version ]; then echo 'aider 0.0.0-fake'; exit 0; fi\n")
	// Each argument NUL-terminated, so any byte but NUL survives.
	fmt.Fprintf(&b, "for a in \"$@\"; do printf '%%s\\000' \"$a\"; done > '%s'\n", f.log)
	if opts.From != "" {
		fmt.Fprintf(&b, "seen=; files=\n")
		fmt.Fprintf(&b, "while [ $# -gt 0 ]; do\n")
		fmt.Fprintf(&b, "  if [ -n \"$seen\" ] && [ -f \"$1\" ]; then sed -i 's|%s|%s|g' \"$1\"; echo \"Applied edit to $1\"; fi\n", opts.From, opts.To)
		fmt.Fprintf(&b, "  if [ \"$1\" = -m ]; then shift; seen=1; fi\n")
		fmt.Fprintf(&b, "  shift\n")
		fmt.Fprintf(&b, "done\n")
	}
	if opts.Output != "" {
		fmt.Fprintf(&b, "cat <<'FAKE_AIDER_EOF'\n%s\nFAKE_AIDER_EOF\n", opts.Output)
	}
	if opts.Sleep > 0 {
		fmt.Fprintf(&b, "sleep %d\n", opts.Sleep)
	}
	fmt.Fprintf(&b, "exit %d\n", opts.ExitCode)
	if err := os.WriteFile(f.Path, []byte(b.String()), 0o755); err != nil {
		t.Fatalf("aidertest: write fake aider: %v", err)
	}
	return f
}

// Argv returns the arguments of the last run (without the program name),
// or nil when the fake has not run.
func (f *Fake) Argv(t testing.TB) []string {
	t.Helper()
	data, err := os.ReadFile(f.log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatalf("aidertest: read argv log: %v", err)
	}
	parts := bytes.Split(data, []byte{0})
	out := make([]string, 0, len(parts))
	for _, p := range parts[:len(parts)-1] { // the log ends with a NUL
		out = append(out, string(p))
	}
	return out
}
