// Package workspace confines file access to the project root and writes
// files atomically.
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Root is the project directory every file tool works inside.
type Root struct {
	dir string // absolute, symlinks resolved
}

// New returns a Root for dir, which must exist.
func New(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", dir, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("project root %s: not a directory", dir)
	}
	return &Root{dir: real}, nil
}

// Dir returns the absolute root directory.
func (r *Root) Dir() string { return r.dir }

// ErrOutsideRoot is returned for paths that leave the project root.
var ErrOutsideRoot = errors.New("path is outside the project root")

// Resolve turns a path given by the model (relative to the root, or
// absolute inside it) into an absolute path whose real location, after
// following every symlink of the existing part, is inside the root.
// The file itself need not exist.
func (r *Root) Resolve(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", errors.New("empty path")
	}
	if strings.ContainsRune(p, 0) {
		return "", errors.New("path contains a NUL byte")
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(r.dir, p)
	}
	abs = filepath.Clean(abs)
	if !within(r.dir, abs) {
		return "", fmt.Errorf("%s: %w (%s)", p, ErrOutsideRoot, r.dir)
	}
	real, err := evalExisting(abs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if !within(r.dir, real) {
		return "", fmt.Errorf("%s: %w: it resolves through a symlink to %s", p, ErrOutsideRoot, real)
	}
	return real, nil
}

// Rel returns abs relative to the root, with forward slashes.
func (r *Root) Rel(abs string) string {
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

// evalExisting resolves symlinks in the longest existing prefix of p and
// appends the rest unchanged.
func evalExisting(p string) (string, error) {
	rest := ""
	cur := p
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			if rest == "" {
				return real, nil
			}
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		// A dangling symlink at cur: refuse to guess where it points.
		if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(cur)
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(cur), target)
			}
			return evalExisting(filepath.Join(filepath.Clean(target), rest))
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func within(root, p string) bool {
	if p == root {
		return true
	}
	return strings.HasPrefix(p, root+string(filepath.Separator))
}
