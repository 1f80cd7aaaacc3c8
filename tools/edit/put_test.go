package edit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func putArgsFor(path, content string) func(fixture) map[string]any {
	return func(fixture) map[string]any {
		return map[string]any{"filepath": path, "complete_file_contents": content}
	}
}

func TestPutCompleteFileContents(t *testing.T) {
	t.Parallel()
	tests := []editCase{
		{
			name:   "creates a file and its parent directories",
			args:   putArgsFor("a/b/c.txt", "hello\n"),
			outHas: []string{"Successfully wrote 6 bytes to a/b/c.txt: created a/b/c.txt"},
			after:  map[string]string{"a/b/c.txt": "hello\n"},
			check: func(t *testing.T, f fixture) {
				fi, err := os.Stat(filepath.Join(f.dir, "a/b/c.txt"))
				if err != nil || fi.Mode().Perm() != newFileMode {
					t.Errorf("new file mode = %v, want %v (%v)", fi.Mode().Perm(), newFileMode, err)
				}
			},
		},
		{
			name:   "overwrite gives a diff",
			files:  map[string]string{"a.txt": "one\ntwo\nthree\n"},
			args:   putArgsFor("a.txt", "one\n2\nthree\n"),
			outHas: []string{"Successfully wrote 12 bytes to a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"},
			after:  map[string]string{"a.txt": "one\n2\nthree\n"},
		},
		{
			name:   "same content is not rewritten",
			files:  map[string]string{"a.txt": "same\n"},
			args:   putArgsFor("a.txt", "same\n"),
			outHas: []string{"No changes: a.txt already has this content (5 bytes)"},
			after:  map[string]string{"a.txt": "same\n"},
		},
		{
			name:   "empty content",
			files:  map[string]string{"a.txt": "x\n"},
			args:   putArgsFor("a.txt", ""),
			outHas: []string{"Successfully wrote 0 bytes to a.txt", "-x\n"},
			after:  map[string]string{"a.txt": ""},
		},
		{
			name:   "CRLF file keeps CRLF",
			files:  map[string]string{"w.txt": "a\r\nb\r\n"},
			args:   putArgsFor("w.txt", "a\nc\n"),
			outHas: []string{"kept the file's CRLF line endings", "-b\r\n+c\r\n"},
			after:  map[string]string{"w.txt": "a\r\nc\r\n"},
		},
		{
			name:   "binary file is replaced without a diff",
			files:  map[string]string{"b.dat": "\x00\x01"},
			args:   putArgsFor("b.dat", "text\n"),
			outHas: []string{"Successfully wrote 5 bytes to b.dat (replaced a binary file; no diff shown)"},
			after:  map[string]string{"b.dat": "text\n"},
		},
		{
			name:  "mode is kept",
			files: map[string]string{"run.sh": "old\n"},
			setup: func(t *testing.T, f fixture) {
				if err := os.Chmod(filepath.Join(f.dir, "run.sh"), 0o755); err != nil {
					t.Fatal(err)
				}
			},
			args:  putArgsFor("run.sh", "new\n"),
			after: map[string]string{"run.sh": "new\n"},
			check: func(t *testing.T, f fixture) {
				fi, err := os.Stat(filepath.Join(f.dir, "run.sh"))
				if err != nil || fi.Mode().Perm() != 0o755 {
					t.Errorf("mode = %v, want 0755 (%v)", fi.Mode().Perm(), err)
				}
			},
		},
		{
			name:   "directory",
			files:  map[string]string{"pkg/a.go": "x"},
			args:   putArgsFor("pkg", "x"),
			errHas: []string{"pkg is a directory"},
		},
		{
			name:   "dot-dot escape",
			args:   putArgsFor("../outside/new.txt", "pwned"),
			errHas: []string{"refused", "outside the project root"},
		},
		{
			name: "absolute path outside the root",
			args: func(f fixture) map[string]any {
				return map[string]any{"filepath": filepath.Join(f.outside, "secret.txt"), "complete_file_contents": "pwned"}
			},
			errHas: []string{"refused", "outside the project root"},
		},
		{
			name: "symlinked directory leaving the root",
			setup: func(t *testing.T, f fixture) {
				if err := os.Symlink(f.outside, filepath.Join(f.dir, "out")); err != nil {
					t.Skip("symlinks unsupported:", err)
				}
			},
			args:   putArgsFor("out/sub/new.txt", "pwned"),
			errHas: []string{"refused", "symlink"},
		},
		{
			name: "dangling symlink pointing outside",
			setup: func(t *testing.T, f fixture) {
				if err := os.Symlink(filepath.Join(f.outside, "created.txt"), filepath.Join(f.dir, "dangling")); err != nil {
					t.Skip("symlinks unsupported:", err)
				}
			},
			args:   putArgsFor("dangling", "pwned"),
			errHas: []string{"refused"},
		},
		{
			name:   "empty path",
			args:   putArgsFor("", "x"),
			errHas: []string{"invalid path", "empty path"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, "put_complete_file_contents")
		})
	}
}

func TestPutRefusedCreatesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	res := run(t, f.root, Options{}, "put_complete_file_contents", map[string]any{
		"filepath": "sub/../../outside/x/y.txt", "complete_file_contents": "z",
	})
	if res.Success {
		t.Fatalf("escape accepted: %s", res.Output)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "sub")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused write created directories: %v", err)
	}
	f.assertOutsideUntouched(t)
}
