package policy

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// place is where a path a command writes to lies.
type place int

const (
	placeInside    place = iota // inside the project root
	placeTemp                   // inside a temp directory
	placeSink                   // /dev/null, /dev/stdout and the like
	placeProtected              // .git or .reach inside the root
	placeRoot                   // the root itself or a directory above it
	placeDevice                 // a device under /dev
	placeOutside                // anywhere else
	placeUnknown                // not known until the command runs
)

var sinks = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true, "/dev/zero": true}

// locate works out where p (as the command will see it from st's working
// directory) lies, and its absolute form. followLast resolves a symlink
// in the last component too (writes through it); deletes act on the link.
func (w *walker) locate(p string, st *state, followLast bool) (place, string) {
	if p == "" || isDyn(p) || strings.HasPrefix(p, "~") {
		if strings.HasPrefix(p, "~") && !isDyn(p) {
			// ~user that the expander left alone: another user's home.
			return placeOutside, p
		}
		return placeUnknown, p
	}
	if strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.") {
		followLast = true // link/ names the directory the link points to
	}
	if !path.IsAbs(p) {
		if st.cwd == "" {
			return placeUnknown, p
		}
		p = st.cwd + "/" + p
	}
	p = globPrefix(p)
	abs := path.Clean(p)
	abs = w.throughLinks(abs, followLast)
	real := resolveExisting(abs, followLast)
	return w.placeOf(real), real
}

// globPrefix turns a glob pattern into a path standing for what it may
// match: components that can match ".." become "..", and the part from
// the first other pattern component on becomes one child "x".
func globPrefix(p string) string {
	if !strings.ContainsAny(p, "*?[") {
		return p
	}
	parts := strings.Split(p, "/")
	for i, c := range parts {
		if !strings.ContainsAny(c, "*?[") {
			continue
		}
		if ok, _ := path.Match(c, ".."); ok {
			parts[i] = ".."
			continue
		}
		parts = append(parts[:i], "x")
		break
	}
	return strings.Join(parts, "/")
}

// throughLinks follows symlinks the same script created.
func (w *walker) throughLinks(abs string, followLast bool) string {
	for range 8 {
		changed := false
		for link, target := range w.links {
			switch {
			case strings.HasPrefix(abs, link+"/"):
				abs = path.Clean(target + abs[len(link):])
				changed = true
			case abs == link && followLast:
				abs = target
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return abs
}

// resolveExisting follows the symlinks of the part of abs that exists.
func resolveExisting(abs string, followLast bool) string {
	if !followLast {
		dir, base := filepath.Split(abs)
		if base == "" || dir == "" {
			return abs
		}
		return filepath.Join(resolveExisting(filepath.Clean(dir), true), base)
	}
	rest := ""
	cur := abs
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(cur); lerr == nil {
				return abs // unreadable: judge it as written
			}
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func (w *walker) placeOf(real string) place {
	switch {
	case sinks[real] || strings.HasPrefix(real, "/dev/fd/") || strings.HasPrefix(real, "/proc/self/fd/"):
		return placeSink
	case within("/dev", real):
		return placeDevice
	case within(w.p.root, real):
		if real == w.p.root {
			return placeRoot
		}
		rel := strings.TrimPrefix(real, w.p.root+"/")
		first, _, _ := strings.Cut(rel, "/")
		if first == ".git" || first == ".reach" {
			return placeProtected
		}
		return placeInside
	case within(real, w.p.root):
		return placeRoot
	}
	for _, t := range w.p.temps {
		if within(t, real) && real != t {
			return placeTemp
		}
	}
	return placeOutside
}

// within reports whether p is dir or inside it.
func within(dir, p string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}
