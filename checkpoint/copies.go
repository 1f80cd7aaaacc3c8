package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reach-agent/reach/workspace"
)

// MaxCopySize is the largest file the copy backend records; bigger ones
// are left out of checkpoints (and so left alone by undo).
const MaxCopySize = 64 << 20

// copies keeps checkpoints outside git: each file's content once under
// objects/<sha256>, and one manifest per checkpoint.
type copies struct {
	root string
	dir  string // .reach/checkpoints
}

// manifest is one checkpoint of the copy backend.
type manifest struct {
	Time   time.Time        `json:"time"`
	Reason string           `json:"reason"`
	Files  map[string]entry `json:"files"`
}

type entry struct {
	Mode uint32 `json:"mode"`
	Hash string `json:"hash"`
}

func (c *copies) kind() string { return "copies" }

func (c *copies) take(ctx context.Context, reason string, now time.Time) (string, bool, error) {
	files := map[string]entry{}
	err := filepath.WalkDir(c.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == c.root {
				return err
			}
			return nil // unreadable: not recorded
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(c.root, p)
		if d.IsDir() {
			if rel == ".reach" || rel == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		var data []byte
		mode := info.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return nil
			}
			data, mode = []byte(target), fs.ModeSymlink|0o777
		case mode.IsRegular() && info.Size() <= MaxCopySize:
			if data, err = os.ReadFile(p); err != nil {
				return nil
			}
			mode = mode.Perm()
		default:
			return nil
		}
		hash, err := c.store(data)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = entry{Mode: uint32(mode), Hash: hash}
		return nil
	})
	if err != nil {
		return "", false, fmt.Errorf("record %s: %w", c.root, err)
	}
	names, err := c.manifests()
	if err != nil {
		return "", false, err
	}
	if len(names) > 0 {
		if last, err := c.read(names[len(names)-1]); err == nil && sameFiles(last.Files, files) {
			return names[len(names)-1], false, nil
		}
	}
	name := fmt.Sprintf("%s-%06d.json", now.UTC().Format("20060102T150405.000000000Z"), len(names)+1)
	data, err := json.Marshal(manifest{Time: now, Reason: reason, Files: files})
	if err != nil {
		return "", false, err
	}
	if err := workspace.WriteFileAtomic(filepath.Join(c.dir, name), data, 0o600); err != nil {
		return "", false, err
	}
	return name, true, nil
}

// store writes data under objects/ once and returns its hash.
func (c *copies) store(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	p := filepath.Join(c.dir, "objects", hash[:2], hash[2:])
	if _, err := os.Stat(p); err == nil {
		return hash, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return "", fmt.Errorf("store a copy: %w", err)
	}
	if err := workspace.WriteFileAtomic(p, data, 0o600); err != nil {
		return "", fmt.Errorf("store a copy: %w", err)
	}
	return hash, nil
}

func sameFiles(a, b map[string]entry) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// manifests returns the manifest names, oldest first.
func (c *copies) manifests() ([]string, error) {
	ents, err := os.ReadDir(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", c.dir, err)
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

func (c *copies) read(name string) (manifest, error) {
	var m manifest
	data, err := os.ReadFile(filepath.Join(c.dir, name))
	if err != nil {
		return m, fmt.Errorf("read checkpoint %s: %w", name, err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("read checkpoint %s: %w", name, err)
	}
	return m, nil
}

func (c *copies) list(context.Context) ([]Checkpoint, error) {
	names, err := c.manifests()
	if err != nil {
		return nil, err
	}
	var list []Checkpoint
	for i := len(names) - 1; i >= 0; i-- {
		m, err := c.read(names[i])
		if err != nil {
			return nil, err
		}
		list = append(list, Checkpoint{N: len(list) + 1, ID: names[i], Time: m.Time, Reason: m.Reason})
	}
	return list, nil
}

func (c *copies) files(_ context.Context, id string) (map[string]file, error) {
	m, err := c.read(id)
	if err != nil {
		return nil, err
	}
	out := make(map[string]file, len(m.Files))
	for p, e := range m.Files {
		out[p] = file{mode: fs.FileMode(e.Mode), hash: e.Hash}
	}
	return out, nil
}

func (c *copies) content(_ context.Context, f file) ([]byte, error) {
	if len(f.hash) < 3 {
		return nil, fmt.Errorf("bad object name %q", f.hash)
	}
	return os.ReadFile(filepath.Join(c.dir, "objects", f.hash[:2], f.hash[2:]))
}
