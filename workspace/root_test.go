package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	rootDir := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(rootDir, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(rootDir, "a.txt"), []byte("a"), 0o644))
	must(os.Symlink(outside, filepath.Join(rootDir, "out-link")))
	must(os.Symlink(filepath.Join(outside, "nothing-yet"), filepath.Join(rootDir, "dangling")))
	must(os.Symlink("a.txt", filepath.Join(rootDir, "in-link")))
	must(os.Symlink("../..", filepath.Join(rootDir, "sub", "up")))
	r, err := New(rootDir)
	must(err)

	tests := []struct {
		path    string
		want    string // relative to the root; "" means refused
		errText string
	}{
		{"a.txt", "a.txt", ""},
		{"./sub/../a.txt", "a.txt", ""},
		{"new/dir/file.go", "new/dir/file.go", ""},
		{filepath.Join(rootDir, "sub"), "sub", ""},
		{"in-link", "a.txt", ""},
		{".", ".", ""},
		{"../outside/x", "", "outside the project root"},
		{"sub/../../outside", "", "outside the project root"},
		{"/etc/passwd", "", "outside the project root"},
		{"out-link/x", "", "symlink"},
		{"out-link", "", "symlink"},
		{"dangling", "", "symlink"},
		{"sub/up/outside/f", "", "symlink"},
		{"", "", "empty path"},
		{"a\x00b", "", "NUL"},
		{strings.Repeat("n", 300), "", "name too long"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			got, err := r.Resolve(tc.path)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("Resolve(%q) = %q, want refusal", tc.path, got)
				}
				if !strings.Contains(err.Error(), tc.errText) {
					t.Fatalf("error %q lacks %q", err, tc.errText)
				}
				if tc.errText == "outside the project root" && !errors.Is(err, ErrOutsideRoot) {
					t.Fatalf("error does not wrap ErrOutsideRoot: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.path, err)
			}
			if rel := r.Rel(got); rel != tc.want {
				t.Fatalf("Resolve(%q) = %q, want %q", tc.path, rel, tc.want)
			}
		})
	}
}

func TestWriteFileAtomicKeepsModeAndLeavesNoTemp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(p, []byte("old"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o750 {
		t.Fatalf("mode %v, want 0750", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("content %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left: %v", entries)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x"), []byte("x"), 0o644); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}
