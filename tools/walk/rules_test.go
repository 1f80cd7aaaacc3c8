package walk

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// TestRuleAgreesWithGoGit checks the fast name-pattern path against
// go-git's matcher on the same patterns and paths.
func TestRuleAgreesWithGoGit(t *testing.T) {
	t.Parallel()
	patterns := []string{"*.log", "build/", "!keep.log", "node_modules", "a?c", "[ab]*.go", "docs/*.md", "/root.txt",
		"**/gen", "x/**/y", "dir/", "!dir/", "name with space ", "*", "!*.go"}
	paths := []struct {
		p     string
		isDir bool
	}{
		{"a.log", false}, {"sub/a.log", false}, {"keep.log", false}, {"build", true}, {"build", false},
		{"src/build/x.go", false}, {"node_modules", true}, {"web/node_modules/m/i.js", false}, {"abc", false},
		{"sub/axc", true}, {"a.go", false}, {"b/cc.go", false}, {"docs/a.md", false}, {"x/docs/a.md", false},
		{"root.txt", false}, {"sub/root.txt", false}, {"p/gen", true}, {"x/q/y", false}, {"dir", true},
		{"dir/f", false}, {"name with space", false}, {"z.go", false},
	}
	for _, domain := range [][]string{nil, {"sub"}} {
		for _, pat := range patterns {
			ours := parseRule(pat, domain)
			theirs := gitignore.ParsePattern(pat, domain)
			for _, tc := range paths {
				parts := strings.Split(tc.p, "/")
				if got, want := ours.match(parts, tc.isDir, false), theirs.Match(parts, tc.isDir); got != want {
					t.Errorf("pattern %q (domain %v) on %q dir=%v: got %v, go-git %v", pat, domain, tc.p, tc.isDir, got, want)
				}
			}
		}
	}
}

func TestIgnoredEntryLooksAtTheLastName(t *testing.T) {
	t.Parallel()
	r := NewRules(t.TempDir(), []string{"*.log", "build/", "docs/*.md"})
	cases := []struct {
		p          string
		isDir      bool
		full, last bool
	}{
		{"a/b.log", false, true, true},
		{"build/x.go", false, true, false}, // the walk never gets here: build/ was pruned
		{"build", true, true, true},
		{"build", false, false, false},
		{"docs/a.md", false, true, true},
		{"src/main.go", false, false, false},
	}
	for _, tc := range cases {
		parts := strings.Split(tc.p, "/")
		if got := r.Ignored(parts, tc.isDir); got != tc.full {
			t.Errorf("Ignored(%q) = %v, want %v", tc.p, got, tc.full)
		}
		if got := r.IgnoredEntry(parts, tc.isDir); got != tc.last {
			t.Errorf("IgnoredEntry(%q) = %v, want %v", tc.p, got, tc.last)
		}
	}
}
