// Package checkpoint records the project's working tree before reach
// changes it and restores it on `reach undo`: in git objects under
// refs/reach/checkpoints when the project is a git work tree (the user's
// branch, index and stash untouched), else as content-addressed copies
// under .reach/checkpoints.
package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/reach-agent/reach/workspace"
)

// Ref is where the git backend keeps its chain of checkpoints.
const Ref = "refs/reach/checkpoints"

// Checkpoint is one recorded state of the working tree.
type Checkpoint struct {
	N      int    // 1 is the most recent
	ID     string // a commit hash, or a manifest name outside git
	Time   time.Time
	Reason string
}

// Restored says what Restore changed.
type Restored struct {
	Checkpoint Checkpoint
	Written    []string // files brought back or reverted (relative to the root)
	Deleted    []string // files created after the checkpoint, now removed
	Saved      Checkpoint
}

// file is one entry of a recorded tree.
type file struct {
	mode fs.FileMode // 0o644, 0o755, or fs.ModeSymlink
	hash string
}

// backend records and reads trees.
type backend interface {
	take(ctx context.Context, reason string, now time.Time) (id string, created bool, err error)
	list(ctx context.Context) ([]Checkpoint, error)
	files(ctx context.Context, id string) (map[string]file, error)
	content(ctx context.Context, f file) ([]byte, error)
	kind() string
}

// Store takes and restores checkpoints of one project root. It is safe
// for concurrent use: checkpoints are taken one at a time.
type Store struct {
	root string
	b    backend
	now  func() time.Time
	mu   sync.Mutex
}

// Open returns a Store for root: git-backed when root is inside a git
// work tree and git is installed, else copy-backed.
func Open(ctx context.Context, root string) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("checkpoints for %s: %w", root, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	s := &Store{root: abs, now: time.Now}
	if g, err := openGit(ctx, abs); err == nil {
		s.b = g
	} else {
		s.b = &copies{root: abs, dir: filepath.Join(abs, ".reach", "checkpoints")}
	}
	return s, nil
}

// Kind is "git" or "copies".
func (s *Store) Kind() string { return s.b.kind() }

// Take records the working tree. created is false when it equals the
// latest checkpoint, which then costs nothing.
func (s *Store) Take(ctx context.Context, reason string) (Checkpoint, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.take(ctx, reason)
}

func (s *Store) take(ctx context.Context, reason string) (Checkpoint, bool, error) {
	now := s.now()
	id, created, err := s.b.take(ctx, oneLine(reason), now)
	if err != nil {
		return Checkpoint{}, false, fmt.Errorf("take checkpoint: %w", err)
	}
	return Checkpoint{N: 1, ID: id, Time: now, Reason: reason}, created, nil
}

// List returns the checkpoints, most recent first.
func (s *Store) List(ctx context.Context) ([]Checkpoint, error) {
	list, err := s.b.list(ctx)
	if err != nil {
		return nil, fmt.Errorf("list checkpoints: %w", err)
	}
	return list, nil
}

// Restore brings the working tree back to checkpoint n (1 = the most
// recent): files it recorded are written back byte for byte (deleted ones
// too), files created since are removed, ignored files are left alone.
// The state before the restore is checkpointed first, so an undo can be
// undone.
func (s *Store) Restore(ctx context.Context, n int) (Restored, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.List(ctx)
	if err != nil {
		return Restored{}, err
	}
	if n < 1 || n > len(list) {
		if len(list) == 0 {
			return Restored{}, errors.New("there are no checkpoints to restore: reach takes one before each change it makes")
		}
		return Restored{}, fmt.Errorf("no checkpoint %d: there are %d (see reach checkpoints)", n, len(list))
	}
	target := list[n-1]
	saved, _, err := s.take(ctx, fmt.Sprintf("before undo to checkpoint %d", n))
	if err != nil {
		return Restored{}, err
	}
	want, err := s.b.files(ctx, target.ID)
	if err != nil {
		return Restored{}, fmt.Errorf("read checkpoint %d: %w", n, err)
	}
	have, err := s.b.files(ctx, saved.ID)
	if err != nil {
		return Restored{}, fmt.Errorf("read the current state: %w", err)
	}
	res := Restored{Checkpoint: target, Saved: saved}
	for _, p := range sortedKeys(have) {
		if _, ok := want[p]; !ok {
			if err := os.Remove(filepath.Join(s.root, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return res, fmt.Errorf("remove %s: %w", p, err)
			}
			res.Deleted = append(res.Deleted, p)
			s.pruneEmptyDirs(filepath.Dir(filepath.Join(s.root, filepath.FromSlash(p))))
		}
	}
	for _, p := range sortedKeys(want) {
		f := want[p]
		if cur, ok := have[p]; ok && cur == f {
			continue
		}
		if err := s.write(ctx, p, f); err != nil {
			return res, err
		}
		res.Written = append(res.Written, p)
	}
	return res, nil
}

func (s *Store) write(ctx context.Context, rel string, f file) error {
	data, err := s.b.content(ctx, f)
	if err != nil {
		return fmt.Errorf("read %s from the checkpoint: %w", rel, err)
	}
	abs := filepath.Join(s.root, filepath.FromSlash(rel))
	if !strings.HasPrefix(abs, s.root+string(filepath.Separator)) {
		return fmt.Errorf("restore %s: the path leaves the project root", rel)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fmt.Errorf("restore %s: %w", rel, err)
	}
	if st, err := os.Lstat(abs); err == nil && (st.IsDir() || st.Mode()&fs.ModeSymlink != 0) {
		if err := os.RemoveAll(abs); err != nil {
			return fmt.Errorf("restore %s: clear the way: %w", rel, err)
		}
	}
	if f.mode&fs.ModeSymlink != 0 {
		tmp := abs + ".reach-undo"
		_ = os.Remove(tmp)
		if err := os.Symlink(string(data), tmp); err != nil {
			return fmt.Errorf("restore the symlink %s: %w", rel, err)
		}
		if err := os.Rename(tmp, abs); err != nil {
			_ = os.Remove(tmp)
			return fmt.Errorf("restore the symlink %s: %w", rel, err)
		}
		return nil
	}
	if err := workspace.WriteFileAtomic(abs, data, f.mode.Perm()); err != nil {
		return fmt.Errorf("restore %s: %w", rel, err)
	}
	// WriteFileAtomic keeps an existing file's mode; the checkpoint's wins.
	if err := os.Chmod(abs, f.mode.Perm()); err != nil {
		return fmt.Errorf("restore the mode of %s: %w", rel, err)
	}
	return nil
}

// pruneEmptyDirs removes dir and its parents while they are empty, up to
// the root.
func (s *Store) pruneEmptyDirs(dir string) {
	for dir != s.root && strings.HasPrefix(dir, s.root+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

func sortedKeys(m map[string]file) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
