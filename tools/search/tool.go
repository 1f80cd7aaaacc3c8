// Package search implements the ripgrep_search tool: rg when it is
// installed, else a native parallel Go search with the same output.
package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// Name is the tool's wire name.
const Name = "ripgrep_search"

// DefaultExcludeDirs returns the directory names never searched (SPEC §3).
func DefaultExcludeDirs() []string {
	return []string{".git", "node_modules", "vendor", ".venv", "__pycache__", ".cache",
		"dist", "build", "env", ".env", "venv", ".idea", ".vscode", ".reach"}
}

// maxContext bounds before/after context lines.
const maxContext = 100

// Options configures the tool. The zero value looks rg up on PATH at each
// call and falls back to the native search when it is missing.
type Options struct {
	// RgPath is the rg binary to run; "" looks "rg" up on PATH.
	RgPath string
	// Native forces the Go search even when rg is installed.
	Native bool
	// Timeout of one search; 0 means 60s.
	Timeout time.Duration
}

// backend returns the rg binary to use, or "" for the native search.
func (o Options) backend() string {
	if o.Native {
		return ""
	}
	if o.RgPath != "" {
		return o.RgPath
	}
	p, err := exec.LookPath("rg")
	if err != nil {
		return ""
	}
	return p
}

// Backend says which search ripgrep_search would use now, for reach doctor.
func Backend(opts Options) string {
	if rg := opts.backend(); rg != "" {
		return "rg (" + rg + ")"
	}
	if opts.Native {
		return "native Go search (forced)"
	}
	return "native Go search (rg not found on PATH)"
}

const schema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["pattern"],
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Regular expression (Rust/RE2 syntax, matched per line) or, with fixed_string, a literal string."},
    "fixed_string": {"type": "boolean", "default": false, "description": "Treat pattern as a literal string, not a regex. Default false."},
    "case_sensitive": {"type": "boolean", "default": true, "description": "Default true; false matches regardless of case."},
    "before_context_lines": {"type": "integer", "minimum": 0, "maximum": 100, "default": 0, "description": "Lines of context shown before each match. Default 0."},
    "after_context_lines": {"type": "integer", "minimum": 0, "maximum": 100, "default": 0, "description": "Lines of context shown after each match. Default 0."},
    "include_hidden": {"type": "boolean", "default": false, "description": "Also search files and directories whose names start with a dot. Default false."},
    "follow_links": {"type": "boolean", "default": false, "description": "Follow symbolic links. Default false."},
    "file_type": {"type": "string", "description": "Only files of this type: go, python (py), rust (rs), typescript (ts), javascript (js), yaml (yml), markdown (md), java, c, cpp, sh, json, toml, html, css, sql, ..."},
    "include_paths": {"type": "array", "items": {"type": "string"}, "description": "Search only these files or directories (relative to the project root). Default: the whole project."},
    "exclude_dirs": {"type": "array", "items": {"type": "string"}, "description": "Directory names (globs allowed) to skip, added to the defaults: .git node_modules vendor .venv __pycache__ .cache dist build env .env venv .idea .vscode .reach."}
  }
}`

type args struct {
	Pattern       string   `json:"pattern"`
	FixedString   bool     `json:"fixed_string"`
	CaseSensitive *bool    `json:"case_sensitive"`
	Before        int      `json:"before_context_lines"`
	After         int      `json:"after_context_lines"`
	IncludeHidden bool     `json:"include_hidden"`
	FollowLinks   bool     `json:"follow_links"`
	FileType      string   `json:"file_type"`
	IncludePaths  []string `json:"include_paths"`
	ExcludeDirs   []string `json:"exclude_dirs"`
}

// Tool returns the ripgrep_search tool working inside root.
func Tool(root *workspace.Root, opts Options) tools.Tool {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	return tools.Tool{
		Spec: tools.Spec{
			Name: Name,
			Summary: "Search file contents for a regex or literal across the project (ripgrep); returns path:line:text " +
				"for each matching line and a match count. Use it to find where something is defined or used; " +
				"use fuzzy_find_project_files to find files by name and read_file_tool to read a file you already know.",
			Parameters: json.RawMessage(schema),
			SideEffect: tools.Read,
			Idempotent: true,
			Timeout:    timeout,
			Groups:     []string{tools.GroupBase},
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			return run(ctx, root, opts, raw)
		},
	}
}

func run(ctx context.Context, root *workspace.Root, opts Options, raw json.RawMessage) tools.Result {
	a, err := tools.Decode[args](raw)
	if err != nil {
		return tools.Fail(err.Error())
	}
	q, msg := buildQuery(root, a)
	if msg != "" {
		return tools.Fail(msg)
	}
	var res *results
	if rg := opts.backend(); rg != "" {
		res, err = rgSearch(ctx, rg, root.Dir(), q)
	} else {
		res, err = nativeSearch(ctx, root.Dir(), q)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return tools.Fail("ripgrep_search timed out; narrow the search with include_paths, file_type or a more specific pattern")
	case errors.Is(err, context.Canceled):
		return tools.Fail("ripgrep_search was interrupted")
	case err != nil:
		return tools.Fail(fmt.Sprintf("ripgrep_search failed for pattern %q: %v", a.Pattern, err) + hint(err.Error(), a.FixedString))
	}
	return tools.OK(res.format())
}

// hint adds what to change for the common mistakes.
func hint(msg string, fixed bool) string {
	if !fixed && strings.Contains(msg, "regex parse error") {
		return "\nFix the regex, or set fixed_string=true to search for the text literally."
	}
	return ""
}

// buildQuery validates the arguments into a query, or returns a message
// for the model.
func buildQuery(root *workspace.Root, a args) (query, string) {
	q := query{
		Pattern:       a.Pattern,
		Fixed:         a.FixedString,
		CaseSensitive: a.CaseSensitive == nil || *a.CaseSensitive,
		Before:        a.Before,
		After:         a.After,
		Hidden:        a.IncludeHidden,
		Follow:        a.FollowLinks,
	}
	if a.Pattern == "" {
		return q, "pattern is empty; give the text or regex to search for"
	}
	if strings.ContainsAny(a.Pattern, "\n\x00") {
		return q, "pattern contains a line break or NUL byte; ripgrep_search matches one line at a time, so search for a single line"
	}
	if a.Before < 0 || a.After < 0 || a.Before > maxContext || a.After > maxContext {
		return q, fmt.Sprintf("before_context_lines and after_context_lines must be between 0 and %d", maxContext)
	}
	if a.FileType != "" {
		name, globs, msg := resolveType(a.FileType)
		if msg != "" {
			return q, msg
		}
		q.TypeName, q.TypeGlobs = name, globs
	}
	for _, p := range a.IncludePaths {
		abs, err := root.Resolve(p)
		if err != nil {
			return q, fmt.Sprintf("include_paths: %v; give paths inside the project root", err)
		}
		rel := root.Rel(abs)
		if _, err := os.Stat(abs); err != nil {
			return q, fmt.Sprintf("include_paths: %s does not exist; list the directory with list_directory_tree or find it with fuzzy_find_project_files", p)
		}
		q.Paths = append(q.Paths, rel)
	}
	q.Exclude = append(DefaultExcludeDirs(), a.ExcludeDirs...)
	for _, d := range a.ExcludeDirs {
		if strings.TrimSpace(d) == "" || strings.Contains(strings.Trim(d, "/"), "/") {
			return q, fmt.Sprintf("exclude_dirs: %q must be a directory name (or a glob like \"gen*\"), not a path", d)
		}
	}
	for i, d := range q.Exclude {
		q.Exclude[i] = strings.Trim(d, "/")
	}
	return q, ""
}
