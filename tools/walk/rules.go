// Package walk lists a project's files in parallel, honouring .gitignore-style
// ignore files, hidden-file and exclude rules, and symlink loops.
package walk

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// DefaultIgnoreFiles are the ignore files read in every directory when
// Options.IgnoreFiles is nil.
var DefaultIgnoreFiles = []string{".gitignore", ".ignore"}

// Rules is the ignore state of one directory: its own patterns and those
// of every ancestor up to the walk root. A nil *Rules ignores nothing.
// Rules are immutable once built, so children share their parents.
type Rules struct {
	parent   *Rules
	patterns []gitignore.Pattern
}

// NewRules builds the rules that hold above the root directory's own
// ignore files: .git/info/exclude when root holds a git directory, then
// extra (gitignore syntax, anchored at root). Enter the root itself next.
func NewRules(root string, extra []string) *Rules {
	ps := readPatterns(filepath.Join(root, ".git", "info", "exclude"), nil)
	for _, p := range extra {
		if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "#") {
			ps = append(ps, gitignore.ParsePattern(p, nil))
		}
	}
	if len(ps) == 0 {
		return nil
	}
	return &Rules{patterns: ps}
}

// Enter returns the rules for directory absDir (path components parts
// relative to the root), adding the patterns of its ignore files.
func (r *Rules) Enter(absDir string, parts []string, ignoreFiles []string) *Rules {
	var ps []gitignore.Pattern
	for _, name := range ignoreFiles {
		ps = append(ps, readPatterns(filepath.Join(absDir, name), parts)...)
	}
	if len(ps) == 0 {
		return r
	}
	return &Rules{parent: r, patterns: ps}
}

// Ignored reports whether the path (components relative to the root) is
// excluded: the deepest directory's last matching pattern decides.
func (r *Rules) Ignored(parts []string, isDir bool) bool {
	for cur := r; cur != nil; cur = cur.parent {
		for i := len(cur.patterns) - 1; i >= 0; i-- {
			switch cur.patterns[i].Match(parts, isDir) {
			case gitignore.Exclude:
				return true
			case gitignore.Include:
				return false
			}
		}
	}
	return false
}

// readPatterns parses one ignore file; a missing or unreadable file has
// no patterns.
func readPatterns(file string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
