package walk

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"testing"
)

// tree writes files (path → content) under a new temp dir.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFiles(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		".gitignore":          "*.log\n/build/\n!keep.log\n",
		"a.go":                "",
		"debug.log":           "",
		"keep.log":            "",
		"build/out.bin":       "",
		"sub/build/x.go":      "",
		"sub/.gitignore":      "gen_*.go\n",
		"sub/gen_a.go":        "",
		"sub/b.go":            "",
		"sub/deep/gen_b.go":   "",
		".hidden/c.go":        "",
		".env":                "",
		".git/config":         "",
		".git/info/exclude":   "secret.txt\n",
		"secret.txt":          "",
		"node_modules/m/i.js": "",
		"docs/.ignore":        "draft.md\n",
		"docs/draft.md":       "",
		"docs/final.md":       "",
	}
	root := tree(t, files)
	cases := []struct {
		name string
		opts Options
		want []string
	}{
		{"default honours nested ignores and hides dot files", Options{}, []string{
			"a.go", "docs/final.md", "keep.log", "node_modules/m/i.js", "sub/b.go", "sub/build/x.go"}},
		{"hidden adds dot files but never .git", Options{Hidden: true}, []string{
			".env", ".gitignore", ".hidden/c.go", "a.go", "docs/.ignore", "docs/final.md", "keep.log",
			"node_modules/m/i.js", "sub/.gitignore", "sub/b.go", "sub/build/x.go"}},
		{"exclude globs match base names", Options{Exclude: []string{"node_modules", "*.md"}}, []string{
			"a.go", "keep.log", "sub/b.go", "sub/build/x.go"}},
		{"extra ignore patterns", Options{Ignore: []string{"sub/", "*.js"}}, []string{
			"a.go", "docs/final.md", "keep.log"}},
		{"only .gitignore when asked", Options{IgnoreFiles: []string{".gitignore"}}, []string{
			"a.go", "docs/draft.md", "docs/final.md", "keep.log", "node_modules/m/i.js", "sub/b.go", "sub/build/x.go"}},
		{"single worker gives the same set", Options{Workers: 1}, []string{
			"a.go", "docs/final.md", "keep.log", "node_modules/m/i.js", "sub/b.go", "sub/build/x.go"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Files(context.Background(), root, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestWalkStarts(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{
		".gitignore":   "*.tmp\n",
		"a/x.go":       "",
		"a/y.tmp":      "",
		"a/b/z.go":     "",
		"a/b/.ignore":  "z.go\n",
		"c/skip.go":    "",
		"ignored.tmp":  "",
		"a/b/keep.txt": "",
	})
	cases := []struct {
		starts []string
		want   []string
	}{
		{[]string{"a"}, []string{"a/b/keep.txt", "a/x.go"}},
		{[]string{"a/b"}, []string{"a/b/keep.txt"}},
		{[]string{"ignored.tmp"}, []string{"ignored.tmp"}}, // named files are searched even when ignored
		{[]string{"a/b", "c"}, []string{"a/b/keep.txt", "c/skip.go"}},
		{[]string{"./a/../a/b/"}, []string{"a/b/keep.txt"}}, // cleaned
	}
	for _, tc := range cases {
		t.Run(tc.starts[0], func(t *testing.T) {
			t.Parallel()
			var got []string
			err := Walk(context.Background(), root, tc.starts, Options{Workers: 1}, func(e Entry) error {
				got = append(got, e.Rel)
				if want := filepath.Join(root, filepath.FromSlash(e.Rel)); e.Abs != want {
					t.Errorf("%s: Abs %q, want %q", e.Rel, e.Abs, want)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPathPatternsDeep checks that path patterns (with a slash) see the
// right components at every depth, whichever worker walks a directory.
func TestPathPatternsDeep(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{
		".gitignore":        "a/deep/x/\n/top.go\n",
		"a/.gitignore":      "deep/y/*.tmp\n",
		"a/deep/x/1.go":     "",
		"a/deep/y/2.go":     "",
		"a/deep/y/3.tmp":    "",
		"a/deep/z/x/4.go":   "",
		"a/other/deep/x/5":  "",
		"b/a/deep/x/6.go":   "",
		"top.go":            "",
		"a/top.go":          "",
		"a/b/c/d/e/f/g.go":  "",
		"a/b/c/d/e/f2/h.go": "",
	})
	want := []string{"a/b/c/d/e/f/g.go", "a/b/c/d/e/f2/h.go", "a/deep/y/2.go", "a/deep/z/x/4.go",
		"a/other/deep/x/5", "a/top.go", "b/a/deep/x/6.go"}
	var wantSiblings []string
	// Sibling directories, each with a pattern naming one of its files.
	files := map[string]string{".gitignore": ""}
	for _, d := range []string{"d1", "d2", "d3", "d4", "d5"} {
		files[".gitignore"] += "p/" + d + "/" + d + ".tmp\n"
		for _, f := range []string{"d1", "d2", "d3", "d4", "d5"} {
			files["p/"+d+"/"+f+".tmp"] = ""
			if f != d {
				wantSiblings = append(wantSiblings, "p/"+d+"/"+f+".tmp")
			}
		}
	}
	siblings := tree(t, files)
	for _, workers := range []int{1, 2, 8} {
		for _, tc := range []struct {
			root string
			want []string
		}{{root, want}, {siblings, wantSiblings}} {
			got, err := Files(context.Background(), tc.root, Options{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%d workers: got %q, want %q", workers, got, tc.want)
			}
		}
	}
}

func TestSymlinks(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"d/f.go": "", "target.txt": ""})
	if err := os.Symlink(root, filepath.Join(root, "d", "loop")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.Symlink("target.txt", filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing", filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		opts Options
		want []string
	}{
		{"links skipped by default", Options{}, []string{"d/f.go", "target.txt"}},
		{"loop entered once when following", Options{FollowLinks: true}, []string{"d/f.go", "link.txt", "target.txt"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Files(context.Background(), root, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestWalkStopsOnVisitErrorAndCancel(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for _, d := range []string{"a", "b", "c", "d"} {
		for _, f := range []string{"1", "2", "3"} {
			files[d+"/"+f] = ""
		}
	}
	root := tree(t, files)
	boom := errors.New("boom")
	if err := Walk(context.Background(), root, nil, Options{}, func(Entry) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("visit error: got %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Walk(ctx, root, nil, Options{}, func(Entry) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: got %v, want context.Canceled", err)
	}
	if err := Walk(context.Background(), root, []string{"nope"}, Options{}, func(Entry) error { return nil }); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing start: got %v", err)
	}
}

func BenchmarkFilesGOROOT(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(root); err != nil {
		b.Skip("no GOROOT source")
	}
	for b.Loop() {
		fs, err := Files(context.Background(), root, Options{})
		if err != nil || len(fs) == 0 {
			b.Fatal(err, len(fs))
		}
	}
}
