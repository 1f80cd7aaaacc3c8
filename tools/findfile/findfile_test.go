package findfile

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

var corpus = []string{
	"cmd/reach/main.go",
	"internal/server/handler.go",
	"internal/server/handler_test.go",
	"internal/handler/router.go",
	"pkg/fileserver/NewFileServer.go",
	"pkg/net/http/server.go",
	"docs/handling.md",
	"tools/search/native.go",
	"tools/search/nativeutil/native_helpers.go",
	"README.md",
}

func TestRank(t *testing.T) {
	t.Parallel()
	cases := []struct {
		query string
		top   string
	}{
		{"handler.go", "internal/server/handler.go"}, // exact file name beats a directory match and the _test file
		{"handlr", "internal/server/handler.go"},     // one letter dropped
		{"hnadler", "internal/server/handler.go"},    // swapped letters: the typo fallback
		{"server/handler", "internal/server/handler.go"},
		{"srv/hand", "internal/server/handler.go"}, // parent/stem abbreviation
		{"NFS", "pkg/fileserver/NewFileServer.go"}, // camelCase initials
		{"native", "tools/search/native.go"},       // shorter path wins the tie
		{"readme", "README.md"},                    // case-insensitive
		{"http server", "pkg/net/http/server.go"},  // terms all match
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			got := Rank(context.Background(), corpus, tc.query, 0, 3)
			if len(got) == 0 || got[0].Path != tc.top {
				t.Fatalf("top for %q = %v, want %s", tc.query, got, tc.top)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Score > got[i-1].Score {
					t.Errorf("not sorted: %v", got)
				}
			}
		})
	}
}

func TestScoresNormalised(t *testing.T) {
	t.Parallel()
	cases := []struct {
		query, path string
		lo, hi      int
	}{
		{"handler.go", "internal/server/handler.go", 100, 100},
		{"handler", "internal/server/handler.go", 95, 100},
		{"handlr", "internal/server/handler.go", 60, 99},
		{"hdl", "docs/handling.md", 20, 80},
		{"zzz", "internal/server/handler.go", -1, -1}, // no match at all
	}
	for _, tc := range cases {
		t.Run(tc.query+"~"+tc.path, func(t *testing.T) {
			t.Parallel()
			got := Rank(context.Background(), []string{tc.path}, tc.query, 0, 1)
			if tc.lo < 0 {
				if len(got) != 0 {
					t.Fatalf("want no match, got %v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Score < tc.lo || got[0].Score > tc.hi {
				t.Fatalf("score %v, want %d..%d", got, tc.lo, tc.hi)
			}
		})
	}
}

func repo(t *testing.T, git bool) *workspace.Root {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		".gitignore":          "build/\n",
		"main.go":             "",
		"server/handler.go":   "",
		"server/untracked.go": "",
		"build/handler.go":    "",
		".hidden/handler.go":  "",
		"docs/handler.md":     "",
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
	if git {
		for _, args := range [][]string{{"init", "-q"}, {"add", "main.go", "server/handler.go", "docs", ".gitignore", "-f", ".hidden"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Skipf("git %v: %v %s", args, err, out)
			}
		}
	}
	root, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestCandidates(t *testing.T) {
	t.Parallel()
	want := []string{"docs/handler.md", "main.go", "server/handler.go", "server/untracked.go"}
	withHidden := []string{".gitignore", ".hidden/handler.go", "docs/handler.md", "main.go", "server/handler.go", "server/untracked.go"}
	for _, tc := range []struct {
		name   string
		git    bool
		opts   Options
		hidden bool
		want   []string
	}{
		{"git ls-files", true, Options{}, false, want},
		{"walk outside git", false, Options{}, false, want},
		{"walk forced", true, Options{NoGit: true}, false, want},
		{"git with hidden", true, Options{}, true, withHidden},
		{"walk with hidden", false, Options{}, true, withHidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := repo(t, tc.git)
			got, err := Candidates(context.Background(), root.Dir(), tc.opts, tc.hidden)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(sorted(got), tc.want) {
				t.Errorf("got %q want %q", got, tc.want)
			}
		})
	}
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestTool(t *testing.T) {
	t.Parallel()
	root := repo(t, true)
	tool := Tool(root, Options{})
	cases := []struct {
		name, args string
		ok         bool
		want       string
	}{
		{"best first as [[path, score]]", `{"search_term":"handler.go"}`, true, `[["server/handler.go",100]]`},
		{"threshold lets weaker matches in", `{"search_term":"handler","threshold":0,"max_results":2}`, true, `[["docs/handler.md",100],["server/handler.go",100]]`},
		{"empty term", `{"search_term":""}`, true, `[]`},
		{"blank term", `{"search_term":"   "}`, true, `[]`},
		{"include paths", `{"search_term":"handler","include_paths":["docs"]}`, true, `[["docs/handler.md",100]]`},
		{"exclude patterns", `{"search_term":"handler","exclude_patterns":["*.go"]}`, true, `[["docs/handler.md",100]]`},
		{"hidden on request", `{"search_term":"handler.go","include_hidden":true,"include_paths":[".hidden"]}`, true, `[[".hidden/handler.go",100]]`},
		{"nothing above threshold", `{"search_term":"qqqq"}`, true, `[]`},
		{"threshold above 100, RA.Aid message", `{"search_term":"x","threshold":101}`, false, "Threshold must be between 0 and 100"},
		{"negative threshold", `{"search_term":"x","threshold":-1}`, false, "Threshold must be between 0 and 100"},
		{"huge max_results", `{"search_term":"x","max_results":100000000}`, false, "max_results must be between 1 and 1000"},
		{"include path outside", `{"search_term":"x","include_paths":["../.."]}`, false, "outside the project root"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := tool.Run(context.Background(), json.RawMessage(tc.args))
			text := res.Output + res.Error
			if res.Success != tc.ok {
				t.Fatalf("success=%v want %v: %s", res.Success, tc.ok, text)
			}
			if tc.ok && text != tc.want || !tc.ok && !strings.Contains(text, tc.want) {
				t.Errorf("got %s, want %s", text, tc.want)
			}
		})
	}
	if err := tools.NewRegistry().Register(tool); err != nil {
		t.Fatal(err)
	}
}

func TestMissingOneMask(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pat, text string
		want      uint64 // bit i: pat without pat[i] is a subsequence
	}{
		{"handler", "x/handler.go", 0b1111111},
		{"hxndler", "x/handler.go", 0b0000011}, // "xndler" holds too: x/ha-n-d-l-e-r
		{"hnadler", "x/handler.go", 0b0000110},
		{"handlerr", "x/handler.go", 0b11000000}, // only one r to spare
		{"hxndlxr", "x/handler.go", 0},
		{"zz", "abc", 0},
		{"az", "abc", 0b10},
	}
	var scratch []int
	for _, tc := range cases {
		if got := missingOneMask(tc.pat, tc.text, &scratch); got != tc.want {
			t.Errorf("missingOneMask(%q, %q) = %b, want %b", tc.pat, tc.text, got, tc.want)
		}
	}
}

func BenchmarkRank(b *testing.B) {
	paths := make([]string, 0, 100_000)
	words := []string{"server", "handler", "router", "config", "util", "internal", "pkg", "cmd", "api", "model", "store", "cache"}
	for i := range 100_000 {
		paths = append(paths, words[i%12]+"/"+words[(i/12)%12]+"/"+words[(i/144)%12]+"_"+words[(i/1728)%12]+"_"+string(rune('a'+i%26))+".go")
	}
	for _, q := range []string{"handler.go", "srv/hand", "cfgstore", "hnadlerrouter"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				_ = Rank(context.Background(), paths, q, 60, 10)
			}
		})
	}
}

func BenchmarkScore(b *testing.B) {
	s := newScorer("srvhandler", false)
	c := newCandidate("internal/platform/server/http/handlers/request_handler_test.go")
	for b.Loop() {
		_, _ = s.score(c)
	}
}
