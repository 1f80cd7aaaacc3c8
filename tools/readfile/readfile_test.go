package readfile

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var many strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&many, "line %d\n", i)
	}
	files := map[string]string{
		"a.txt":      "alpha\nbeta\r\ngamma",
		"many.txt":   many.String(),
		"empty.txt":  "",
		"bin.png":    "\x89PNG\r\n\x1a\n\x00\x00\x00",
		"latin1.txt": "caf\xe9\n",
		"long.txt":   strings.Repeat("é", 1500) + "\n",
		"big.log":    strings.Repeat("x", 130000) + "\n",
		"sub/x.go":   "package sub\n",
		"wide.txt":   strings.Repeat(strings.Repeat("w", 99)+"\n", 1000),
	}
	for p, c := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	root, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	tool := Tool(root, Options{MaxFileBytes: 120000})
	cases := []struct {
		name, args string
		ok         bool
		want       []string
		notWant    []string
	}{
		{"numbered lines, CR stripped, no remainder note", `{"filepath":"a.txt"}`, true,
			[]string{"1\talpha\n2\tbeta\n3\tgamma\n"}, []string{"more lines", "\r"}},
		{"default limit 2000 with remainder note", `{"filepath":"many.txt"}`, true,
			[]string{"   1\tline 1\n", "2000\tline 2000\n", "[500 more lines; call read_file_tool with offset=2001 to continue]"},
			[]string{"line 2001"}},
		{"offset and limit", `{"filepath":"many.txt","offset":10,"limit":2}`, true,
			[]string{"10\tline 10\n11\tline 11\n[2489 more lines; call read_file_tool with offset=12 to continue]"}, []string{"line 9\n", "line 12\n"}},
		{"last window has no note", `{"filepath":"many.txt","offset":2499}`, true, []string{"2499\tline 2499\n2500\tline 2500\n"}, []string{"more lines"}},
		{"window cut to fit the output limit, with the offset to continue", `{"filepath":"wide.txt"}`, true,
			[]string{"  1\t" + strings.Repeat("w", 99), "more lines; call read_file_tool with offset="}, []string{"truncated"}},
		{"offset past the end", `{"filepath":"a.txt","offset":9}`, true, []string{"the file has 3 lines", "between 1 and 3"}, nil},
		{"empty file", `{"filepath":"empty.txt"}`, true, []string{"(empty file)"}, nil},
		{"non-UTF-8 text is read", `{"filepath":"latin1.txt"}`, true, []string{"1\tcaf"}, nil},
		{"long line clipped on a rune boundary", `{"filepath":"long.txt"}`, true, []string{"… [1000 more bytes]"}, nil},
		{"missing file, RA.Aid message", `{"filepath":"nope.txt"}`, false, []string{"File not found: nope.txt"}, nil},
		{"directory", `{"filepath":"sub"}`, false, []string{"sub is a directory", "list_directory_tree"}, nil},
		{"binary refused, RA.Aid message", `{"filepath":"bin.png"}`, false, []string{"read_file failed because we cannot read binary files"}, nil},
		{"too large refused with a hint", `{"filepath":"big.log"}`, false, []string{"too large to read (127.0 KiB, the limit is 117.2 KiB)", "ripgrep_search"}, nil},
		{"outside the root", `{"filepath":"../x"}`, false, []string{"outside the project root"}, nil},
		{"symlink out of the root", `{"filepath":"escape"}`, false, []string{"outside the project root"}, nil},
		{"zero offset", `{"filepath":"a.txt","offset":0}`, false, []string{"offset must be 1 or more"}, nil},
		{"negative limit", `{"filepath":"a.txt","limit":-5}`, false, []string{"limit must be 1 or more"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := tool.Run(context.Background(), json.RawMessage(tc.args))
			text := res.Output + res.Error
			if res.Success != tc.ok {
				t.Fatalf("success=%v want %v: %s", res.Success, tc.ok, text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("missing %q in:\n%.400s", w, text)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(text, w) {
					t.Errorf("unexpected %q in:\n%.400s", w, text)
				}
			}
		})
	}
}

func TestSpecRegisters(t *testing.T) {
	t.Parallel()
	tool := Tool(nil, Options{})
	if tool.Spec.SideEffect != tools.Read || !tool.Spec.Idempotent || !tool.Spec.HasGroup(tools.GroupBase) {
		t.Errorf("spec: %+v", tool.Spec)
	}
	if err := tools.NewRegistry().Register(tool); err != nil {
		t.Fatal(err)
	}
}
