// Package tree implements list_directory_tree: a project directory as an
// indented tree, honouring .gitignore and .aiderignore.
package tree

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/walk"
	"github.com/reach-agent/reach/workspace"
)

// Name is the tool's wire name.
const Name = "list_directory_tree"

// Limits of the tool.
const (
	MaxEntries = 1000 // entries shown; the rest are counted
	MaxDepth   = 64
)

// ignoreFiles are read in every directory listed.
var ignoreFiles = []string{".gitignore", ".aiderignore"}

// defaultExclude are never listed: build and editor litter (gitignore syntax).
var defaultExclude = []string{"node_modules/", "__pycache__/", "*.pyc", "*.pyo", "*.o", "*.so", "*.class", "*.swp", "*.swo"}

// Options configures the tool; the zero value uses the limits above.
type Options struct {
	MaxEntries int // 0 means MaxEntries
}

const schema = `{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "path": {"type": "string", "default": ".", "description": "Directory (or file) to list, relative to the project root. Default \".\"."},
    "max_depth": {"type": "integer", "minimum": 1, "maximum": 64, "default": 1, "description": "How many levels to descend; 1 lists only the directory's own entries. Default 1."},
    "follow_links": {"type": "boolean", "default": false, "description": "Descend into symlinked directories. Default false."},
    "show_size": {"type": "boolean", "default": false, "description": "Show file sizes. Default false."},
    "show_modified": {"type": "boolean", "default": false, "description": "Show modification times. Default false."},
    "exclude_patterns": {"type": "array", "items": {"type": "string"}, "description": "Extra gitignore-style patterns to leave out, e.g. \"*.json\" or \"testdata/\"."}
  }
}`

type args struct {
	Path            string   `json:"path"`
	MaxDepth        *int     `json:"max_depth"`
	FollowLinks     bool     `json:"follow_links"`
	ShowSize        bool     `json:"show_size"`
	ShowModified    bool     `json:"show_modified"`
	ExcludePatterns []string `json:"exclude_patterns"`
}

// Tool returns list_directory_tree working inside root.
func Tool(root *workspace.Root, opts Options) tools.Tool {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = MaxEntries
	}
	return tools.Typed(tools.Spec{
		Name: Name,
		Summary: "Show a directory of the project as a tree (directories first, .gitignore honoured), one level by default; " +
			"raise max_depth to see deeper. Use it to get the layout of a project or package; to find a file by name use " +
			"fuzzy_find_project_files, to find text use ripgrep_search.",
		Parameters: json.RawMessage(schema),
		SideEffect: tools.Read,
		Idempotent: true,
		Timeout:    30 * time.Second,
		Groups:     []string{tools.GroupBase},
	}, func(ctx context.Context, a args) tools.Result {
		return list(ctx, root, opts, a)
	})
}

func list(ctx context.Context, root *workspace.Root, opts Options, a args) tools.Result {
	if a.Path == "" {
		a.Path = "."
	}
	depth := 1
	if a.MaxDepth != nil {
		depth = *a.MaxDepth
	}
	if depth < 1 || depth > MaxDepth {
		return tools.Fail(fmt.Sprintf("max_depth must be between 1 and %d (1 lists only the directory's own entries), got %d", MaxDepth, depth))
	}
	abs, err := root.Resolve(a.Path)
	if err != nil {
		return tools.Fail(fmt.Sprintf("cannot list %s: %v", a.Path, err))
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return tools.Fail("Error: Path does not exist: " + a.Path)
	}
	if err != nil {
		return tools.Fail(fmt.Sprintf("cannot list %s: %v", a.Path, err))
	}
	l := &lister{ctx: ctx, a: a, maxDepth: depth, maxEntries: opts.MaxEntries}
	rel := root.Rel(abs)
	if !fi.IsDir() {
		l.b.WriteString(l.label(filepath.Base(abs), fi, "") + "\n")
		return tools.OK(l.b.String())
	}
	if a.FollowLinks {
		l.seen = map[walk.DirID]bool{}
		l.firstVisit(abs, fi)
	}
	rules := walk.NewRules(root.Dir(), append(append([]string(nil), defaultExclude...), a.ExcludePatterns...))
	var parts []string
	if rel != "." {
		parts = strings.Split(rel, "/")
		// Ancestors' ignore files apply too.
		rules = rules.Enter(root.Dir(), nil, ignoreFiles)
		for i := 1; i < len(parts); i++ {
			rules = rules.Enter(filepath.Join(root.Dir(), filepath.FromSlash(strings.Join(parts[:i], "/"))), parts[:i], ignoreFiles)
		}
	}
	l.b.WriteString(display(rel) + "/\n")
	l.dir(abs, parts, rules, 1, "")
	if err := ctx.Err(); err != nil {
		return tools.Fail("list_directory_tree stopped: " + err.Error() + "; list a smaller directory or lower max_depth")
	}
	if l.cut > 0 {
		fmt.Fprintf(&l.b, "[%d more entries not shown (limit %d); list a subdirectory, lower max_depth or add exclude_patterns]\n", l.cut, l.maxEntries)
	}
	if l.shown == 0 {
		l.b.WriteString("(empty or everything ignored)\n")
	}
	return tools.OK(l.b.String())
}

type lister struct {
	ctx        context.Context
	a          args
	maxDepth   int
	maxEntries int
	b          strings.Builder
	shown, cut int
	seen       map[walk.DirID]bool
}

type entry struct {
	name  string
	abs   string
	isDir bool
	info  fs.FileInfo // nil unless needed
	link  string      // symlink target when not followed
}

// entries reads dir and returns what may be listed, directories first.
func (l *lister) entries(abs string, parts []string, rules *walk.Rules) ([]entry, *walk.Rules, error) {
	des, err := os.ReadDir(abs)
	if err != nil {
		return nil, rules, err
	}
	rules = rules.Enter(abs, parts, ignoreFiles)
	out := make([]entry, 0, len(des))
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		e := entry{name: name, abs: filepath.Join(abs, name), isDir: de.IsDir()}
		if de.Type()&fs.ModeSymlink != 0 {
			if l.a.FollowLinks {
				fi, err := os.Stat(e.abs)
				if err == nil {
					e.isDir = fi.IsDir()
					e.info = fi
				}
			} else {
				e.link, _ = os.Readlink(e.abs)
			}
		}
		if rules.IgnoredEntry(append(parts[:len(parts):len(parts)], name), e.isDir) {
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].isDir != out[j].isDir {
			return out[i].isDir
		}
		return strings.ToLower(out[i].name) < strings.ToLower(out[j].name)
	})
	return out, rules, nil
}

// dir lists one directory at depth (1 for the directory asked for).
func (l *lister) dir(abs string, parts []string, rules *walk.Rules, depth int, indent string) {
	if l.ctx.Err() != nil {
		return
	}
	if l.shown >= l.maxEntries {
		l.count(abs, parts, rules, depth)
		return
	}
	ents, rules, err := l.entries(abs, parts, rules)
	if err != nil {
		l.line(indent + "└── [cannot read: " + errText(err) + "]")
		return
	}
	for i, e := range ents {
		branch, next := "├── ", "│   "
		if i == len(ents)-1 {
			branch, next = "└── ", "    "
		}
		childParts := append(parts[:len(parts):len(parts)], e.name)
		switch {
		case e.isDir && e.link == "":
			descend := depth < l.maxDepth && (l.seen == nil || l.firstVisitPath(e.abs))
			suffix := ""
			if !descend {
				if sub, _, err := l.entries(e.abs, childParts, rules); err == nil && depth >= l.maxDepth {
					suffix = fmt.Sprintf(" (%d %s)", len(sub), plural(len(sub), "entry", "entries"))
				}
			}
			l.line(indent + branch + display(e.name) + "/" + suffix)
			if descend {
				l.dir(e.abs, childParts, rules, depth+1, indent+next)
			}
		default:
			if l.shown >= l.maxEntries {
				l.cut++
				continue
			}
			info := e.info
			if info == nil && (l.a.ShowSize || l.a.ShowModified) {
				info, _ = os.Lstat(e.abs)
			}
			l.line(indent + branch + l.label(e.name, info, e.link))
		}
	}
}

// count adds to l.cut what dir would have listed, without sorting or
// formatting: once the limit is reached only the number matters.
func (l *lister) count(abs string, parts []string, rules *walk.Rules, depth int) {
	if l.ctx.Err() != nil {
		return
	}
	f, err := os.Open(abs)
	if err != nil {
		return
	}
	des, _ := f.ReadDir(-1)
	f.Close()
	for _, name := range ignoreFiles {
		if slices.ContainsFunc(des, func(d fs.DirEntry) bool { return d.Name() == name }) {
			rules = rules.Enter(abs, parts, ignoreFiles)
			break
		}
	}
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		isDir := de.IsDir()
		childAbs := filepath.Join(abs, name)
		if de.Type()&fs.ModeSymlink != 0 && l.a.FollowLinks {
			if fi, err := os.Stat(childAbs); err == nil {
				isDir = fi.IsDir()
			}
		}
		childParts := append(parts[:len(parts):len(parts)], name)
		if rules.IgnoredEntry(childParts, isDir) {
			continue
		}
		l.cut++
		if isDir && de.Type()&fs.ModeSymlink == 0 || isDir && l.a.FollowLinks {
			if depth < l.maxDepth && (l.seen == nil || l.firstVisitPath(childAbs)) {
				l.count(childAbs, childParts, rules, depth+1)
			}
		}
	}
}

func (l *lister) line(s string) {
	if l.shown >= l.maxEntries {
		l.cut++
		return
	}
	l.shown++
	l.b.WriteString(s)
	l.b.WriteByte('\n')
}

// label is a file's name with the metadata asked for.
func (l *lister) label(name string, info fs.FileInfo, link string) string {
	s := display(name)
	if link != "" {
		s += " -> " + display(link)
	}
	var meta []string
	if info != nil && l.a.ShowSize {
		meta = append(meta, humanSize(info.Size()))
	}
	if info != nil && l.a.ShowModified {
		meta = append(meta, info.ModTime().Format("2006-01-02 15:04"))
	}
	if len(meta) > 0 {
		s += " (" + strings.Join(meta, ", ") + ")"
	}
	return s
}

func (l *lister) firstVisitPath(abs string) bool {
	fi, err := os.Stat(abs)
	return err == nil && l.firstVisit(abs, fi)
}

// firstVisit records a real directory; a symlink loop is listed once.
func (l *lister) firstVisit(abs string, fi fs.FileInfo) bool {
	id, ok := walk.IDOf(abs, fi)
	if !ok {
		return true
	}
	if l.seen[id] {
		return false
	}
	l.seen[id] = true
	return true
}

// display quotes names that are not valid UTF-8 so they survive JSON.
func display(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	return strconv.Quote(name)
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
