// Package walk lists a project's files in parallel, honouring .gitignore-style
// ignore files, hidden-file and exclude rules, and symlink loops.
package walk

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// defaultIgnoreFiles are the ignore files read in every directory when
// Options.IgnoreFiles is nil.
func defaultIgnoreFiles() []string { return []string{".gitignore", ".ignore"} }

// Rules is the ignore state of one directory: its own patterns and those
// of every ancestor up to the walk root. A nil *Rules ignores nothing.
// Rules are immutable once built, so children share their parents.
type Rules struct {
	parent   *Rules
	patterns []rule
}

// rule is one ignore pattern. Patterns without a slash ("*.log", "build/")
// match a single name and are matched here with path.Match; the others go
// to go-git's matcher.
type rule struct {
	name    string // the glob of a simple pattern; "" for a path pattern
	literal bool   // name has no glob characters: compare, do not match
	negate  bool
	dirOnly bool
	domain  []string
	git     gitignore.Pattern // path patterns only
}

func parseRule(line string, domain []string) rule {
	r := rule{domain: domain}
	p := line
	if strings.HasPrefix(p, "!") {
		r.negate = true
		p = p[1:]
	}
	if !strings.HasSuffix(p, "\\ ") {
		p = strings.TrimRight(p, " ")
	}
	if strings.HasSuffix(p, "/") {
		r.dirOnly = true
		p = p[:len(p)-1]
	}
	if strings.Contains(p, "/") || p == "" {
		r.git = gitignore.ParsePattern(line, domain)
		return r
	}
	r.name = p
	r.literal = !strings.ContainsAny(p, "*?[\\")
	return r
}

func (r *rule) matchName(name string) bool {
	if r.literal {
		return name == r.name
	}
	ok, _ := path.Match(r.name, name)
	return ok
}

// match applies the rule to a path. With lastOnly, the caller has already
// checked every parent directory, so a simple pattern need only look at
// the last name.
func (r *rule) match(parts []string, isDir, lastOnly bool) gitignore.MatchResult {
	if r.git != nil {
		return r.git.Match(parts, isDir)
	}
	hit := false
	if lastOnly {
		hit = len(parts) > len(r.domain) && r.matchName(parts[len(parts)-1]) && (isDir || !r.dirOnly)
	} else if len(parts) > len(r.domain) && hasPrefix(parts, r.domain) {
		for i, name := range parts[len(r.domain):] {
			if r.matchName(name) {
				hit = !r.dirOnly || isDir || i < len(parts)-len(r.domain)-1
				break
			}
		}
	}
	switch {
	case !hit:
		return gitignore.NoMatch
	case r.negate:
		return gitignore.Include
	}
	return gitignore.Exclude
}

func hasPrefix(parts, prefix []string) bool {
	for i, p := range prefix {
		if parts[i] != p {
			return false
		}
	}
	return true
}

// NewRules builds the rules that hold above the root directory's own
// ignore files: .git/info/exclude when root holds a git directory, then
// extra (gitignore syntax, anchored at root). Enter the root itself next.
func NewRules(root string, extra []string) *Rules {
	ps := readPatterns(filepath.Join(root, ".git", "info", "exclude"), nil)
	for _, p := range extra {
		if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "#") {
			ps = append(ps, parseRule(p, nil))
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
	var ps []rule
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
	return r.ignored(parts, isDir, false)
}

// IgnoredEntry is Ignored for a walk that never enters an ignored
// directory: every parent of parts is known not to be ignored, so name
// patterns are matched against the last component only.
func (r *Rules) IgnoredEntry(parts []string, isDir bool) bool {
	return r.ignored(parts, isDir, true)
}

func (r *Rules) ignored(parts []string, isDir, lastOnly bool) bool {
	for cur := r; cur != nil; cur = cur.parent {
		for i := len(cur.patterns) - 1; i >= 0; i-- {
			switch cur.patterns[i].match(parts, isDir, lastOnly) {
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
func readPatterns(file string, domain []string) []rule {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var ps []rule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, parseRule(line, domain))
	}
	return ps
}
