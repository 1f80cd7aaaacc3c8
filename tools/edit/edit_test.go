package edit

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// fixture is a project root with files, plus a directory outside it.
type fixture struct {
	root    *workspace.Root
	dir     string // the root
	outside string // a directory next to the root
}

func newFixture(t *testing.T, files map[string]string) fixture {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{root: root, dir: root.Dir(), outside: outside}
}

func (f fixture) read(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, rel))
	if err != nil {
		t.Fatalf("read %s: %v", rel, err)
	}
	return string(data)
}

// assertNoTempFiles fails if an atomic write left a temporary file.
func (f fixture) assertNoTempFiles(t *testing.T) {
	t.Helper()
	for _, d := range []string{f.dir, f.outside} {
		_ = filepath.WalkDir(d, func(p string, _ fs.DirEntry, err error) error {
			if err == nil && strings.Contains(filepath.Base(p), ".reach-tmp") {
				t.Errorf("temporary file left behind: %s", p)
			}
			return nil
		})
	}
}

func (f fixture) assertOutsideUntouched(t *testing.T) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.outside, "secret.txt"))
	if err != nil || string(data) != "outside\n" {
		t.Errorf("file outside the root changed: %q, %v", data, err)
	}
	entries, _ := os.ReadDir(f.outside)
	if len(entries) != 1 {
		t.Errorf("files appeared outside the root: %v", entries)
	}
}

func run(t *testing.T, root *workspace.Root, opts Options, name string, args map[string]any) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range Tools(root, opts) {
		if tool.Spec.Name == name {
			return tool.Run(context.Background(), raw)
		}
	}
	t.Fatalf("no tool %s", name)
	return tools.Result{}
}

func TestSpecs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ts := Tools(f.root, Options{})
	reg := tools.NewRegistry()
	if err := reg.Register(ts...); err != nil {
		t.Fatalf("Register: %v", err)
	}
	want := map[string][]string{
		"file_str_replace":           {"filepath", "old_str", "new_str"},
		"put_complete_file_contents": {"filepath", "complete_file_contents"},
	}
	for _, tool := range ts {
		t.Run(tool.Spec.Name, func(t *testing.T) {
			s := tool.Spec
			required, ok := want[s.Name]
			if !ok {
				t.Fatalf("unexpected tool %s", s.Name)
			}
			if s.SideEffect != tools.Write || !s.HasGroup(tools.GroupImplementation) || len(s.Groups) != 1 {
				t.Errorf("side effect %q groups %v", s.SideEffect, s.Groups)
			}
			if s.Summary == "" || strings.Contains(s.Summary, "\n") {
				t.Errorf("summary must be one line: %q", s.Summary)
			}
			var schema struct {
				Required             []string       `json:"required"`
				AdditionalProperties *bool          `json:"additionalProperties"`
				Properties           map[string]any `json:"properties"`
			}
			if err := json.Unmarshal(s.Parameters, &schema); err != nil {
				t.Fatal(err)
			}
			if strings.Join(schema.Required, ",") != strings.Join(required, ",") {
				t.Errorf("required = %v, want %v", schema.Required, required)
			}
			if schema.AdditionalProperties == nil || *schema.AdditionalProperties {
				t.Error("additionalProperties must be false")
			}
		})
	}

	// Through the executor, the schema rejects unknown and missing fields.
	ex := &tools.Executor{Registry: reg}
	offered := tools.Names(reg.Specs())
	for _, tc := range []struct{ name, args, want string }{
		{"file_str_replace", `{"filepath":"a","old_str":"x","new_str":"y","oops":1}`, "oops"},
		{"file_str_replace", `{"filepath":"a","old_str":"x"}`, "new_str"},
		{"put_complete_file_contents", `{"filepath":"a","complete_file_contents":3}`, "complete_file_contents"},
	} {
		res := ex.Execute(context.Background(), tools.Call{Name: tc.name, Arguments: tc.args}, offered)
		if res.Success || !strings.Contains(res.Error, tc.want) {
			t.Errorf("%s %s: got %+v, want an error naming %q", tc.name, tc.args, res, tc.want)
		}
	}
}

func TestBeforeWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tool string
		args map[string]any
		file string // relative path that must be left as it was (or absent)
	}{
		{"replace", "file_str_replace", map[string]any{"filepath": "a.txt", "old_str": "one", "new_str": "two"}, "a.txt"},
		{"put existing", "put_complete_file_contents", map[string]any{"filepath": "a.txt", "complete_file_contents": "new\n"}, "a.txt"},
		{"put new nested", "put_complete_file_contents", map[string]any{"filepath": "new/dir/b.txt", "complete_file_contents": "b\n"}, "new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, map[string]string{"a.txt": "one\n"})
			var got []string
			opts := Options{BeforeWrite: func(_ context.Context, abs string) error {
				got = append(got, abs)
				return errors.New("disk full")
			}}
			res := run(t, f.root, opts, tt.tool, tt.args)
			if res.Success || !strings.Contains(res.Error, "disk full") || !strings.Contains(res.Error, "not changed") {
				t.Fatalf("want a failed write naming the hook error, got %+v", res)
			}
			want := filepath.Join(f.dir, tt.args["filepath"].(string))
			if len(got) != 1 || got[0] != want {
				t.Errorf("BeforeWrite called with %v, want [%s]", got, want)
			}
			if tt.file == "a.txt" {
				if c := f.read(t, "a.txt"); c != "one\n" {
					t.Errorf("a.txt changed to %q", c)
				}
			} else if _, err := os.Stat(filepath.Join(f.dir, tt.file)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s was created although the hook failed", tt.file)
			}
			f.assertNoTempFiles(t)
		})
	}

	t.Run("success passes the absolute path", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, map[string]string{"a.txt": "one\n"})
		var got []string
		opts := Options{BeforeWrite: func(_ context.Context, abs string) error {
			// The hook sees the file before the change.
			data, _ := os.ReadFile(abs)
			got = append(got, abs+"="+string(data))
			return nil
		}}
		res := run(t, f.root, opts, "file_str_replace", map[string]any{"filepath": "a.txt", "old_str": "one", "new_str": "two"})
		if !res.Success {
			t.Fatal(res.Error)
		}
		if want := filepath.Join(f.dir, "a.txt") + "=one\n"; len(got) != 1 || got[0] != want {
			t.Errorf("hook saw %q, want %q", got, want)
		}
	})
}

func TestHelpers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"short kept", "abc", "abc"},
		{"exactly 30", strings.Repeat("x", 30), strings.Repeat("x", 30)},
		{"long cut", strings.Repeat("y", 31), strings.Repeat("y", 30) + "..."},
		{"runes not bytes", strings.Repeat("é", 31), strings.Repeat("é", 30) + "..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quoteShort(tt.in); got != tt.want {
				t.Errorf("quoteShort(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	eols := []struct {
		in   string
		want lineEnding
	}{
		{"a\nb\n", lf},
		{"a\r\nb\r\n", crlf},
		{"a\r\nb\nc\n", lf},
		{"a\r\nb\r\nc\n", crlf},
		{"no newline", lf},
	}
	for _, tt := range eols {
		if got := detectEOL(tt.in); got != tt.want {
			t.Errorf("detectEOL(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestProtectedDirectoriesAreNeverWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, d := range []string{".git", ".reach", "src"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := reg.Register(Tools(root, Options{})...); err != nil {
		t.Fatal(err)
	}
	ex := &tools.Executor{Registry: reg}
	all := tools.Names(reg.Specs())
	tests := []struct {
		name, tool, args string
		ok               bool
	}{
		{"put into .git", "put_complete_file_contents", `{"filepath":".git/hooks/pre-commit","complete_file_contents":"evil"}`, false},
		{"replace in .git/config", "file_str_replace", `{"filepath":".git/config","old_str":"[core]","new_str":"[x]"}`, false},
		{"put into .reach", "put_complete_file_contents", `{"filepath":".reach/reach.db","complete_file_contents":"x"}`, false},
		{"through ./ and ..", "put_complete_file_contents", `{"filepath":"src/../.git/HEAD","complete_file_contents":"x"}`, false},
		{"a file merely named .github is fine", "put_complete_file_contents", `{"filepath":".github/workflows/ci.yml","complete_file_contents":"on: push\n"}`, true},
		{"a .gitignore is fine", "put_complete_file_contents", `{"filepath":".gitignore","complete_file_contents":"bin/\n"}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := ex.Execute(context.Background(), tools.Call{Name: tc.tool, Arguments: tc.args}, all)
			if res.Success != tc.ok {
				t.Fatalf("success=%v, want %v: %s", res.Success, tc.ok, res.Error)
			}
			if !tc.ok && !strings.Contains(res.Error, "never write") {
				t.Fatalf("error %q", res.Error)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); string(b) != "[core]\n" {
		t.Fatalf(".git/config changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "hooks", "pre-commit")); err == nil {
		t.Fatal("a hook was written")
	}
}
