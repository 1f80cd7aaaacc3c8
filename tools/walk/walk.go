package walk

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Options says which files a walk yields. The zero value walks every
// non-hidden file that no .gitignore or .ignore excludes, without following
// symlinks.
type Options struct {
	Hidden      bool     // include names starting with "."
	FollowLinks bool     // descend into symlinked directories and yield symlinked files
	Exclude     []string // base-name globs (path.Match) of files and directories never yielded or entered
	Ignore      []string // extra gitignore-syntax patterns anchored at the root
	IgnoreFiles []string // ignore files read in each directory; nil means .gitignore and .ignore
	Workers     int      // parallel directory readers; 0 means GOMAXPROCS
}

// Entry is one file found by a walk.
type Entry struct {
	Rel string // slash-separated, relative to the walk root
	Abs string
}

// Walk calls visit for every file under root (or under each of starts,
// given relative to root) that opts admit. visit runs concurrently from
// several goroutines; the first error it returns stops the walk and is
// returned. Unreadable directories are skipped. A symlink loop is entered
// once.
func Walk(ctx context.Context, root string, starts []string, opts Options, visit func(Entry) error) error {
	w := newWalker(root, opts)
	if len(starts) == 0 {
		starts = []string{"."}
	}
	for _, s := range starts {
		s = filepath.ToSlash(filepath.Clean(s))
		abs := filepath.Join(root, filepath.FromSlash(s))
		fi, err := os.Stat(abs)
		if err != nil {
			return fmt.Errorf("walk %s: %w", s, err)
		}
		if !fi.IsDir() {
			// An explicitly named file is searched even if ignored, like rg.
			if err := visit(Entry{Rel: s, Abs: abs}); err != nil {
				return err
			}
			continue
		}
		var parts []string
		rel := ""
		if s != "." {
			parts = strings.Split(s, "/")
			rel = s
		}
		if w.seen != nil {
			w.firstVisit(abs)
		}
		w.push(job{abs: abs, rel: rel, parts: parts, rules: w.rulesFor(parts)})
	}
	return w.run(ctx, visit)
}

// Files returns every file under root that opts admit, sorted.
func Files(ctx context.Context, root string, opts Options) ([]string, error) {
	var mu sync.Mutex
	var out []string
	err := Walk(ctx, root, nil, opts, func(e Entry) error {
		mu.Lock()
		out = append(out, e.Rel)
		mu.Unlock()
		return nil
	})
	sort.Strings(out)
	return out, err
}

type job struct {
	abs   string
	rel   string // slash-separated, "" for the root
	parts []string
	rules *Rules
}

type walker struct {
	root         string
	opts         Options
	ignoreFiles  []string
	base         *Rules
	excludeNames []string // Options.Exclude without glob characters: compared
	excludeGlobs []string // the others: matched

	mu      sync.Mutex
	cond    *sync.Cond
	stack   []job
	pending int // jobs pushed and not yet finished
	err     error
	seen    map[DirID]bool // real directories entered, when following links
}

// DirID identifies a real directory, so that a walk that follows links
// enters each once: by device and inode, or by its path
// with symlinks resolved where there are no inodes.
type DirID struct {
	dev, ino uint64
	real     string
}

func newWalker(root string, opts Options) *walker {
	w := &walker{root: root, opts: opts, ignoreFiles: opts.IgnoreFiles}
	if w.ignoreFiles == nil {
		w.ignoreFiles = defaultIgnoreFiles()
	}
	for _, g := range opts.Exclude {
		if strings.ContainsAny(g, `*?[\`) {
			w.excludeGlobs = append(w.excludeGlobs, g)
		} else {
			w.excludeNames = append(w.excludeNames, g)
		}
	}
	w.cond = sync.NewCond(&w.mu)
	w.base = NewRules(root, opts.Ignore)
	if opts.FollowLinks {
		w.seen = map[DirID]bool{}
	}
	return w
}

// rulesFor builds the rules that hold in a start directory's parent by
// entering the root and each ancestor in turn; the start directory's own
// ignore files are read when it is walked.
func (w *walker) rulesFor(parts []string) *Rules {
	if len(parts) == 0 {
		return w.base
	}
	r := w.base.Enter(w.root, nil, w.ignoreFiles)
	for i := 1; i < len(parts); i++ {
		r = r.Enter(filepath.Join(w.root, filepath.FromSlash(strings.Join(parts[:i], "/"))), parts[:i], w.ignoreFiles)
	}
	return r
}

func (w *walker) push(j job) {
	w.mu.Lock()
	w.stack = append(w.stack, j)
	w.pending++
	w.mu.Unlock()
	w.cond.Signal()
}

// pop returns the next job, or false when the walk is over.
func (w *walker) pop() (job, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.stack) == 0 && w.pending > 0 && w.err == nil {
		w.cond.Wait()
	}
	if len(w.stack) == 0 || w.err != nil {
		return job{}, false
	}
	j := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	return j, true
}

func (w *walker) finish(err error) {
	w.mu.Lock()
	w.pending--
	if err != nil && w.err == nil {
		w.err = err
	}
	done := w.pending == 0 || w.err != nil
	w.mu.Unlock()
	if done {
		w.cond.Broadcast()
	}
}

func (w *walker) run(ctx context.Context, visit func(Entry) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	n := w.opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	stop := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		if w.err == nil {
			w.err = ctx.Err()
		}
		w.mu.Unlock()
		w.cond.Broadcast()
	})
	defer stop()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j, ok := w.pop()
				if !ok {
					return
				}
				w.finish(w.dir(j, visit))
			}
		}()
	}
	wg.Wait()
	// The AfterFunc may be setting err right now, in its own goroutine; a
	// walk that finished first has its whole result and no error.
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// dir reads one directory, yields its files and queues its subdirectories.
func (w *walker) dir(j job, visit func(Entry) error) error {
	f, err := os.Open(j.abs)
	if err != nil {
		return nil // unreadable: skipped, like rg
	}
	ents, _ := f.ReadDir(-1)
	f.Close()
	rules := j.rules
	for _, name := range w.ignoreFiles {
		if hasName(ents, name) {
			rules = rules.Enter(j.abs, j.parts, w.ignoreFiles)
			break
		}
	}
	// Paths are built by appending the name to the directory's: it is
	// clean already. One parts slice serves every entry; a subdirectory's
	// job gets its own copy.
	absDir, relDir := j.abs, j.rel
	if !strings.HasSuffix(absDir, string(filepath.Separator)) {
		absDir += string(filepath.Separator)
	}
	if relDir != "" {
		relDir += "/"
	}
	n := len(j.parts)
	parts := make([]string, n+1)
	copy(parts, j.parts)
	for _, e := range ents {
		name := e.Name()
		if name == ".git" || (!w.opts.Hidden && strings.HasPrefix(name, ".")) || w.excluded(name) {
			continue
		}
		abs := absDir + name
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			if !w.opts.FollowLinks {
				continue
			}
			fi, err := os.Stat(abs)
			if err != nil {
				continue // dangling
			}
			typ = fi.Mode().Type()
		}
		parts[n] = name
		isDir := typ.IsDir()
		if rules.IgnoredEntry(parts, isDir) {
			continue
		}
		if isDir {
			if w.seen != nil && !w.firstVisit(abs) {
				continue
			}
			w.push(job{abs: abs, rel: relDir + name, parts: slices.Clone(parts), rules: rules})
			continue
		}
		if !typ.IsRegular() && typ&fs.ModeSymlink == 0 {
			continue // sockets, devices, fifos
		}
		if err := visit(Entry{Rel: relDir + name, Abs: abs}); err != nil {
			return err
		}
	}
	return nil
}

// firstVisit records a real directory and reports whether it is new: it is
// what keeps a symlink loop from being walked forever.
func (w *walker) firstVisit(abs string) bool {
	fi, err := os.Stat(abs)
	if err != nil {
		return false
	}
	id, ok := IDOf(abs, fi)
	if !ok {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen[id] {
		return false
	}
	w.seen[id] = true
	return true
}

func (w *walker) excluded(name string) bool {
	for _, x := range w.excludeNames {
		if name == x {
			return true
		}
	}
	for _, g := range w.excludeGlobs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

func hasName(ents []os.DirEntry, name string) bool {
	for _, e := range ents {
		if e.Name() == name {
			return true
		}
	}
	return false
}
