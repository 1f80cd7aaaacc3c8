// Package findfile implements fuzzy_find_project_files: the project's
// files ranked by how well their paths match a short query.
package findfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"strings"
	"time"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/walk"
	"github.com/reach-agent/reach/workspace"
)

// Name is the tool's wire name.
const Name = "fuzzy_find_project_files"

// MaxResults bounds max_results.
const MaxResults = 1000

// Options configures the tool. The zero value lists candidates with git
// when the root is in a git work tree, else with a .gitignore-aware walk.
type Options struct {
	// GitPath is the git binary; "" looks "git" up on PATH.
	GitPath string
	// NoGit lists candidates with the walk even inside a git work tree.
	NoGit bool
}

const schema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["search_term"],
  "properties": {
    "search_term": {"type": "string", "description": "Part of the path to look for: a file name, possibly misspelt (handlr), an abbreviation (srv/hand), camelCase initials (NFS). Empty returns []."},
    "threshold": {"type": "integer", "default": 60, "description": "Minimum score, 0-100 (100 = the term is the whole file name). Default 60."},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 10, "description": "Most results returned. Default 10."},
    "include_paths": {"type": "array", "items": {"type": "string"}, "description": "Only paths under these directories or matching these globs (e.g. \"src\", \"*.go\")."},
    "exclude_patterns": {"type": "array", "items": {"type": "string"}, "description": "gitignore-style patterns to leave out (e.g. \"*_test.go\", \"testdata/\")."},
    "include_hidden": {"type": "boolean", "default": false, "description": "Also rank files whose path has a component starting with a dot. Default false."}
  }
}`

type args struct {
	SearchTerm      string   `json:"search_term"`
	Threshold       *int     `json:"threshold"`
	MaxResults      *int     `json:"max_results"`
	IncludePaths    []string `json:"include_paths"`
	ExcludePatterns []string `json:"exclude_patterns"`
	IncludeHidden   bool     `json:"include_hidden"`
}

// Tool returns fuzzy_find_project_files working inside root.
func Tool(root *workspace.Root, opts Options) tools.Tool {
	return tools.Typed(tools.Spec{
		Name: Name,
		Summary: "Find project files by approximate name or path (typos, abbreviations like parent/stem, camelCase initials); " +
			"returns [[path, score], …] best first, scores 0-100. Use it when you know roughly what a file is called; " +
			"to find text inside files use ripgrep_search.",
		Parameters: json.RawMessage(schema),
		SideEffect: tools.Read,
		Idempotent: true,
		Timeout:    30 * time.Second,
		Groups:     []string{tools.GroupBase},
	}, func(ctx context.Context, a args) tools.Result {
		return find(ctx, root, opts, a)
	})
}

func find(ctx context.Context, root *workspace.Root, opts Options, a args) tools.Result {
	threshold, limit := 60, 10
	if a.Threshold != nil {
		threshold = *a.Threshold
	}
	if a.MaxResults != nil {
		limit = *a.MaxResults
	}
	if threshold < 0 || threshold > 100 {
		return tools.Fail(fmt.Sprintf("Threshold must be between 0 and 100 (got %d)", threshold))
	}
	if limit < 1 || limit > MaxResults {
		return tools.Fail(fmt.Sprintf("max_results must be between 1 and %d (got %d)", MaxResults, limit))
	}
	if strings.TrimSpace(a.SearchTerm) == "" {
		return tools.OK("[]")
	}
	paths, err := Candidates(ctx, root.Dir(), opts, a.IncludeHidden)
	if err != nil {
		return tools.Fail(fmt.Sprintf("cannot list the project's files: %v", err))
	}
	paths, err = filter(root, paths, a.IncludePaths, a.ExcludePatterns)
	if err != nil {
		return tools.Fail(err.Error())
	}
	matches := Rank(ctx, paths, a.SearchTerm, threshold, limit)
	if ctx.Err() != nil {
		return tools.Fail("fuzzy_find_project_files was interrupted: " + ctx.Err().Error())
	}
	return tools.OK(encode(matches))
}

func encode(ms []Match) string {
	pairs := make([][2]any, len(ms))
	for i, m := range ms {
		pairs[i] = [2]any{m.Path, m.Score}
	}
	b, _ := json.Marshal(pairs) // strings and ints always marshal
	return string(b)
}

// Candidates lists the files a query ranks: git's tracked plus untracked
// non-ignored files in a git work tree, else a .gitignore-aware walk.
// Hidden files (any path component starting with ".") are left out unless
// hidden is true.
func Candidates(ctx context.Context, dir string, opts Options, hidden bool) ([]string, error) {
	if !opts.NoGit {
		if paths, ok := gitFiles(ctx, dir, opts.GitPath, hidden); ok {
			return paths, nil
		}
	}
	return walk.Files(ctx, dir, walk.Options{Hidden: hidden})
}

// gitFiles runs git ls-files; false means "not a git work tree or no git".
func gitFiles(ctx context.Context, dir, gitPath string, hidden bool) ([]string, bool) {
	if gitPath == "" {
		p, err := exec.LookPath("git")
		if err != nil {
			return nil, false
		}
		gitPath = p
	}
	cmd := exec.CommandContext(ctx, gitPath, "-c", "core.quotepath=off", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	var paths []string
	var last string
	for _, p := range bytes.Split(out, []byte{0}) {
		s := string(p)
		if s == "" || s == last || (!hidden && isHidden(s)) {
			continue // ls-files repeats a path that is both cached and other
		}
		paths = append(paths, s)
		last = s
	}
	return paths, true
}

func isHidden(p string) bool {
	return strings.HasPrefix(p, ".") || strings.Contains(p, "/.")
}

// filter keeps paths under or matching include and not matching exclude.
func filter(root *workspace.Root, paths, include, exclude []string) ([]string, error) {
	if len(include) == 0 && len(exclude) == 0 {
		return paths, nil
	}
	var inc []string
	for _, p := range include {
		if _, err := root.Resolve(p); errors.Is(err, workspace.ErrOutsideRoot) {
			return nil, fmt.Errorf("include_paths: %v; give directories or globs inside the project", err)
		}
		p = strings.Trim(path.Clean(strings.TrimPrefix(p, "./")), "/")
		if p == "." {
			p = ""
		}
		inc = append(inc, p)
	}
	rules := walk.NewRules(root.Dir(), exclude)
	var out []string
	for _, p := range paths {
		if len(inc) > 0 && !included(inc, p) {
			continue
		}
		if rules != nil && rules.Ignored(strings.Split(p, "/"), false) {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

func included(inc []string, p string) bool {
	for _, i := range inc {
		if i == "" || p == i || strings.HasPrefix(p, i+"/") {
			return true
		}
		if ok, _ := path.Match(i, p); ok {
			return true
		}
		if ok, _ := path.Match(i, path.Base(p)); ok {
			return true
		}
	}
	return false
}
