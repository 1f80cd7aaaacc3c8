package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// gitStore records trees with git plumbing and a private index, so the
// user's index, branch and stash are never touched. Reusing the private
// index means only files whose stat data changed are hashed again.
type gitStore struct {
	root   string // the project root
	top    string // the work tree's top level
	prefix string // root relative to top, "" or "dir/"
	index  string // the private index file
}

func openGit(ctx context.Context, root string) (*gitStore, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, err
	}
	g := &gitStore{root: root}
	out, err := g.run(ctx, nil, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--show-prefix")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	g.top, g.index = lines[0], filepath.Join(lines[1], "reach-checkpoint.index")
	if len(lines) > 2 {
		g.prefix = lines[2]
	}
	return g, nil
}

func (g *gitStore) kind() string { return "git" }

// run runs git in the root with the private index and a fixed identity.
func (g *gitStore) run(ctx context.Context, stdin []byte, args ...string) (string, error) {
	// No automatic gc: it would run detached, after we return.
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)...)
	cmd.Dir = g.root
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=reach", "GIT_AUTHOR_EMAIL=reach@localhost",
		"GIT_COMMITTER_NAME=reach", "GIT_COMMITTER_EMAIL=reach@localhost",
		"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	if g.index != "" {
		cmd.Env = append(cmd.Env, "GIT_INDEX_FILE="+g.index)
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

func (g *gitStore) take(ctx context.Context, reason string, _ time.Time) (string, bool, error) {
	// -A records new, changed and deleted files, honouring .gitignore.
	if _, err := g.run(ctx, nil, "add", "-A", "--ignore-errors", "--", ".", ":(exclude).reach/checkpoints"); err != nil {
		return "", false, err
	}
	writeTree := []string{"write-tree"}
	if g.prefix != "" {
		writeTree = append(writeTree, "--prefix="+g.prefix)
	}
	out, err := g.run(ctx, nil, writeTree...)
	if err != nil {
		return "", false, err
	}
	tree := strings.TrimSpace(out)
	parent, _ := g.run(ctx, nil, "rev-parse", "-q", "--verify", Ref)
	parent = strings.TrimSpace(parent)
	if parent != "" {
		if last, err := g.run(ctx, nil, "rev-parse", parent+"^{tree}"); err == nil && strings.TrimSpace(last) == tree {
			return parent, false, nil
		}
	}
	args := []string{"commit-tree", tree, "-m", reason}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	out, err = g.run(ctx, []byte{}, args...)
	if err != nil {
		return "", false, err
	}
	commit := strings.TrimSpace(out)
	old := parent
	if old == "" {
		old = strings.Repeat("0", len(commit))
	}
	if _, err := g.run(ctx, nil, "update-ref", "-m", "reach checkpoint", Ref, commit, old); err != nil {
		return "", false, err
	}
	return commit, true, nil
}

func (g *gitStore) list(ctx context.Context) ([]Checkpoint, error) {
	if out, _ := g.run(ctx, nil, "rev-parse", "-q", "--verify", Ref); strings.TrimSpace(out) == "" {
		return nil, nil
	}
	out, err := g.run(ctx, nil, "log", "--format=%H%x00%ct%x00%s", Ref)
	if err != nil {
		return nil, err
	}
	var list []Checkpoint
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		parts := strings.SplitN(line, "\x00", 3)
		if len(parts) != 3 {
			continue
		}
		sec, _ := strconv.ParseInt(parts[1], 10, 64)
		list = append(list, Checkpoint{N: len(list) + 1, ID: parts[0], Time: time.Unix(sec, 0), Reason: parts[2]})
	}
	return list, nil
}

// files lists the recorded tree, relative to the project root.
func (g *gitStore) files(ctx context.Context, id string) (map[string]file, error) {
	out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", id)
	if err != nil {
		return nil, err
	}
	files := map[string]file{}
	for _, rec := range strings.Split(out, "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta) // mode type hash
		if len(f) != 3 || f[1] != "blob" {
			continue // submodules are not restored
		}
		var mode fs.FileMode
		switch f[0] {
		case "120000":
			mode = fs.ModeSymlink | 0o777
		case "100755":
			mode = 0o755
		default:
			mode = 0o644
		}
		files[p] = file{mode: mode, hash: f[2]}
	}
	return files, nil
}

func (g *gitStore) content(ctx context.Context, f file) ([]byte, error) {
	out, err := g.run(ctx, nil, "cat-file", "blob", f.hash)
	if err != nil {
		return nil, err
	}
	if out == "" && f.hash != emptyBlob {
		return nil, errors.New("empty object " + f.hash)
	}
	return []byte(out), nil
}

const emptyBlob = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
