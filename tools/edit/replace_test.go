package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editCase is one call of an edit tool and what it must do.
type editCase struct {
	name    string
	files   map[string]string
	setup   func(t *testing.T, f fixture)
	args    func(f fixture) map[string]any
	wantErr string   // exact error; "" with errHas empty means success
	errHas  []string // substrings of the error
	outHas  []string // substrings of the output on success
	after   map[string]string
	check   func(t *testing.T, f fixture)
}

func (tc editCase) run(t *testing.T, tool string) {
	t.Helper()
	f := newFixture(t, tc.files)
	if tc.setup != nil {
		tc.setup(t, f)
	}
	res := run(t, f.root, Options{}, tool, tc.args(f))
	wantFail := tc.wantErr != "" || len(tc.errHas) > 0
	switch {
	case wantFail && res.Success:
		t.Fatalf("want failure, got success: %s", res.Output)
	case !wantFail && !res.Success:
		t.Fatalf("want success, got error: %s", res.Error)
	}
	if tc.wantErr != "" && res.Error != tc.wantErr {
		t.Errorf("error = %q\nwant    %q", res.Error, tc.wantErr)
	}
	for _, s := range tc.errHas {
		if !strings.Contains(res.Error, s) {
			t.Errorf("error %q does not contain %q", res.Error, s)
		}
	}
	for _, s := range tc.outHas {
		if !strings.Contains(res.Output, s) {
			t.Errorf("output does not contain %q:\n%s", s, res.Output)
		}
	}
	for name, want := range tc.after {
		if got := f.read(t, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if tc.check != nil {
		tc.check(t, f)
	}
	f.assertNoTempFiles(t)
	f.assertOutsideUntouched(t)
}

func replaceArgs(path, old, new string) func(fixture) map[string]any {
	return func(fixture) map[string]any {
		return map[string]any{"filepath": path, "old_str": old, "new_str": new}
	}
}

const src = "package main\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n\nfunc c() {\n\treturn 1\n}\n"

func TestFileStrReplace(t *testing.T) {
	t.Parallel()
	long := "this string is much longer than thirty characters"
	tests := []editCase{
		{
			name:  "unique match gives a diff",
			files: map[string]string{"m.go": src},
			args:  replaceArgs("m.go", "func b() {\n\treturn 1", "func b() {\n\treturn 2"),
			outHas: []string{
				"Successfully replaced 1 occurrence in m.go\n",
				"--- a/m.go\n+++ b/m.go\n@@ -5,7 +5,7 @@\n }\n \n func b() {\n-\treturn 1\n+\treturn 2\n }\n \n func c() {\n",
			},
			after: map[string]string{"m.go": strings.Replace(src, "func b() {\n\treturn 1", "func b() {\n\treturn 2", 1)},
		},
		{
			name:    "not found",
			files:   map[string]string{"m.go": src},
			args:    replaceArgs("m.go", "return 42", "x"),
			wantErr: "String not found: return 42",
			after:   map[string]string{"m.go": src},
		},
		{
			name:    "not found shows the first 30 characters",
			files:   map[string]string{"m.go": src},
			args:    replaceArgs("m.go", long, "x"),
			wantErr: "String not found: " + long[:30] + "...",
		},
		{
			name:    "ambiguous",
			files:   map[string]string{"m.go": src},
			args:    replaceArgs("m.go", "return 1", "return 2"),
			wantErr: "String appears 3 times - must be unique (use replace_all=True to replace all occurrences)",
			after:   map[string]string{"m.go": src},
		},
		{
			name:  "replace_all",
			files: map[string]string{"m.go": src},
			args: func(fixture) map[string]any {
				return map[string]any{"filepath": "m.go", "old_str": "return 1", "new_str": "return 2", "replace_all": true}
			},
			outHas: []string{"Successfully replaced 3 occurrences in m.go", "-\treturn 1\n+\treturn 2\n"},
			after:  map[string]string{"m.go": strings.ReplaceAll(src, "return 1", "return 2")},
		},
		{
			name:  "replace_all with a single match",
			files: map[string]string{"a.txt": "x y\n"},
			args: func(fixture) map[string]any {
				return map[string]any{"filepath": "a.txt", "old_str": "y", "new_str": "z", "replace_all": true}
			},
			outHas: []string{"Successfully replaced 1 occurrence in a.txt"},
			after:  map[string]string{"a.txt": "x z\n"},
		},
		{
			name:   "empty new_str deletes",
			files:  map[string]string{"a.txt": "keep\ndrop me\nkeep too\n"},
			args:   replaceArgs("a.txt", "drop me\n", ""),
			outHas: []string{"-drop me\n"},
			after:  map[string]string{"a.txt": "keep\nkeep too\n"},
		},
		{
			name:   "empty old_str",
			files:  map[string]string{"a.txt": "x\n"},
			args:   replaceArgs("a.txt", "", "y"),
			errHas: []string{"old_str is empty"},
			after:  map[string]string{"a.txt": "x\n"},
		},
		{
			name:   "same old and new changes nothing",
			files:  map[string]string{"a.txt": "x\n"},
			args:   replaceArgs("a.txt", "x", "x"),
			outHas: []string{"No changes"},
			after:  map[string]string{"a.txt": "x\n"},
		},
		{
			name:   "CRLF file with LF strings keeps CRLF",
			files:  map[string]string{"w.txt": "one\r\ntwo\r\nthree\r\n"},
			args:   replaceArgs("w.txt", "one\ntwo\n", "uno\ndos\nmas\n"),
			outHas: []string{"Successfully replaced 1 occurrence"},
			after:  map[string]string{"w.txt": "uno\r\ndos\r\nmas\r\nthree\r\n"},
		},
		{
			name:  "CRLF file with CRLF strings",
			files: map[string]string{"w.txt": "one\r\ntwo\r\n"},
			args:  replaceArgs("w.txt", "one\r\ntwo", "1\r\n2"),
			after: map[string]string{"w.txt": "1\r\n2\r\n"},
		},
		{
			name:  "LF file with CRLF strings stays LF",
			files: map[string]string{"u.txt": "one\ntwo\n"},
			args:  replaceArgs("u.txt", "one\r\ntwo", "1\r\n2"),
			after: map[string]string{"u.txt": "1\n2\n"},
		},
		{
			name:  "mixed file: an LF section matches as given",
			files: map[string]string{"x.txt": "a\r\nb\r\nc\r\nd\ne\n"},
			args:  replaceArgs("x.txt", "d\ne", "D\nE"),
			after: map[string]string{"x.txt": "a\r\nb\r\nc\r\nD\nE\n"},
		},
		{
			name:    "missing file",
			args:    replaceArgs("nope/missing.go", "a", "b"),
			wantErr: "File not found: nope/missing.go (to create a file, use put_complete_file_contents)",
		},
		{
			name:   "directory",
			files:  map[string]string{"pkg/a.go": "x"},
			args:   replaceArgs("pkg", "a", "b"),
			errHas: []string{"pkg is a directory"},
		},
		{
			name:   "binary file",
			files:  map[string]string{"bin.dat": "abc\x00def"},
			args:   replaceArgs("bin.dat", "abc", "xyz"),
			errHas: []string{"bin.dat looks like a binary file"},
			after:  map[string]string{"bin.dat": "abc\x00def"},
		},
		{
			name: "file over 10 MiB",
			setup: func(t *testing.T, f fixture) {
				fh, err := os.Create(filepath.Join(f.dir, "big.txt"))
				if err != nil {
					t.Fatal(err)
				}
				defer fh.Close()
				if err := fh.Truncate(MaxFileSize + 1); err != nil {
					t.Fatal(err)
				}
			},
			args:   replaceArgs("big.txt", "a", "b"),
			errHas: []string{"big.txt is 10.0 MiB, larger than the 10.0 MiB limit"},
		},
		{
			name:   "dot-dot escape",
			files:  map[string]string{"a.txt": "x"},
			args:   replaceArgs("../outside/secret.txt", "outside", "pwned"),
			errHas: []string{"refused", "outside the project root"},
		},
		{
			name:  "absolute path outside the root",
			files: map[string]string{"a.txt": "x"},
			args: func(f fixture) map[string]any {
				return map[string]any{"filepath": filepath.Join(f.outside, "secret.txt"), "old_str": "outside", "new_str": "pwned"}
			},
			errHas: []string{"refused", "outside the project root"},
		},
		{
			name: "symlink leaving the root",
			setup: func(t *testing.T, f fixture) {
				if err := os.Symlink(filepath.Join(f.outside, "secret.txt"), filepath.Join(f.dir, "link.txt")); err != nil {
					t.Skip("symlinks unsupported:", err)
				}
			},
			args:   replaceArgs("link.txt", "outside", "pwned"),
			errHas: []string{"refused", "symlink"},
		},
		{
			name:  "absolute path inside the root",
			files: map[string]string{"a.txt": "x\n"},
			args: func(f fixture) map[string]any {
				return map[string]any{"filepath": filepath.Join(f.dir, "a.txt"), "old_str": "x", "new_str": "y"}
			},
			outHas: []string{"in a.txt"},
			after:  map[string]string{"a.txt": "y\n"},
		},
		{
			name:  "symlink inside the root edits the target and keeps the link",
			files: map[string]string{"real.txt": "x\n"},
			setup: func(t *testing.T, f fixture) {
				if err := os.Symlink("real.txt", filepath.Join(f.dir, "alias.txt")); err != nil {
					t.Skip("symlinks unsupported:", err)
				}
			},
			args:  replaceArgs("alias.txt", "x", "y"),
			after: map[string]string{"real.txt": "y\n"},
			check: func(t *testing.T, f fixture) {
				if fi, err := os.Lstat(filepath.Join(f.dir, "alias.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("alias.txt is no longer a symlink: %v", err)
				}
			},
		},
		{
			name:  "mode is kept",
			files: map[string]string{"run.sh": "#!/bin/sh\necho hi\n"},
			setup: func(t *testing.T, f fixture) {
				if err := os.Chmod(filepath.Join(f.dir, "run.sh"), 0o750); err != nil {
					t.Fatal(err)
				}
			},
			args:  replaceArgs("run.sh", "echo hi", "echo bye"),
			after: map[string]string{"run.sh": "#!/bin/sh\necho bye\n"},
			check: func(t *testing.T, f fixture) {
				fi, err := os.Stat(filepath.Join(f.dir, "run.sh"))
				if err != nil || fi.Mode().Perm() != 0o750 {
					t.Errorf("mode = %v, want 0750 (%v)", fi.Mode().Perm(), err)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, "file_str_replace")
		})
	}
}
