package checkpoint

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func sh(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

func write(t testing.TB, root, rel, content string, mode fs.FileMode) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// snapshot reads every file under root except .git and .reach: content,
// mode and symlink targets.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel == ".git" || rel == ".reach" {
				return filepath.SkipDir
			}
			return nil
		}
		info, _ := d.Info()
		if info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = "link:" + target
			return nil
		}
		data, err := os.ReadFile(p)
		out[rel] = info.Mode().Perm().String() + ":" + string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// project makes a root with tracked, untracked, ignored, binary,
// executable and symlinked files; git says whether it is a repository.
func project(t *testing.T, withGit bool) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, "main.go", "package main\n", 0o644)
	write(t, root, "docs/guide.md", "# Guide\r\nCRLF kept\r\n", 0o644)
	write(t, root, "run.sh", "#!/bin/sh\necho hi\n", 0o755)
	write(t, root, "data.bin", "\x00\x01\x02\xff binary", 0o644)
	write(t, root, ".gitignore", "secret.env\n", 0o644)
	write(t, root, "secret.env", "KEY=1\n", 0o600)
	if err := os.Symlink("main.go", filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	if withGit {
		git(t, root, "init", "-q", "-b", "main")
		git(t, root, "add", "main.go", "docs", ".gitignore")
		git(t, root, "commit", "-q", "-m", "init")
	}
	write(t, root, "notes/untracked.txt", "not in git yet\n", 0o644)
	return root
}

func TestUndoRestoresByteForByte(t *testing.T) {
	changes := []struct {
		name   string
		change func(t *testing.T, root string)
	}{
		{"shell deletes tracked and untracked files", func(t *testing.T, root string) {
			sh(t, root, "rm -rf docs notes run.sh link.go")
		}},
		{"shell modifies and creates", func(t *testing.T, root string) {
			sh(t, root, "echo changed > main.go && printf 'x' >> data.bin && mkdir -p new/deep && echo n > new/deep/file && chmod -x run.sh")
		}},
		{"git reset and clean wipe uncommitted work", func(t *testing.T, root string) {
			sh(t, root, "echo lost >> main.go && git checkout -- . && git clean -fdq")
		}},
		{"file tools write, create and replace", func(t *testing.T, root string) {
			write(t, root, "main.go", "package main\n\nfunc main() {}\n", 0o644)
			write(t, root, "created.go", "package main\n", 0o644)
			if err := os.Remove(filepath.Join(root, "link.go")); err != nil {
				t.Fatal(err)
			}
			write(t, root, "link.go", "now a file\n", 0o644)
			if err := os.RemoveAll(filepath.Join(root, "docs")); err != nil {
				t.Fatal(err)
			}
			write(t, root, "docs", "a file where a directory was\n", 0o644)
		}},
	}
	for _, withGit := range []bool{true, false} {
		kind := map[bool]string{true: "git", false: "copies"}[withGit]
		for _, tc := range changes {
			if !withGit && strings.HasPrefix(tc.name, "git ") {
				continue
			}
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				ctx := context.Background()
				root := project(t, withGit)
				s, err := Open(ctx, root)
				if err != nil {
					t.Fatal(err)
				}
				if s.Kind() != kind {
					t.Fatalf("backend %s, want %s", s.Kind(), kind)
				}
				before := snapshot(t, root)
				var status string
				if withGit {
					status = git(t, root, "status", "--porcelain")
				}
				if _, _, err := s.Take(ctx, "before the change"); err != nil {
					t.Fatal(err)
				}
				if withGit {
					if got := git(t, root, "status", "--porcelain"); got != status {
						t.Fatalf("taking a checkpoint changed git status:\n%s\nwant\n%s", got, status)
					}
				}
				tc.change(t, root)
				if equal(snapshot(t, root), before) {
					t.Fatal("the change changed nothing")
				}
				res, err := s.Restore(ctx, 1)
				if err != nil {
					t.Fatal(err)
				}
				after := snapshot(t, root)
				if !equal(after, before) {
					t.Fatalf("after undo:\n%v\nwant\n%v", after, before)
				}
				if len(res.Written)+len(res.Deleted) == 0 {
					t.Error("Restore reported nothing restored")
				}
				// The ignored file was never touched.
				if data, _ := os.ReadFile(filepath.Join(root, "secret.env")); string(data) != "KEY=1\n" {
					t.Errorf("ignored file changed: %q", data)
				}
				// The undo itself can be undone: checkpoint 1 is the state before it.
				if _, err := s.Restore(ctx, 1); err != nil {
					t.Fatal(err)
				}
				if equal(snapshot(t, root), before) {
					t.Error("undoing the undo did not bring the change back")
				}
			})
		}
	}
}

func TestGitCheckpointLeavesUserStateAlone(t *testing.T) {
	ctx := context.Background()
	root := project(t, true)
	write(t, root, "main.go", "package main // staged\n", 0o644)
	git(t, root, "add", "main.go")
	head := git(t, root, "rev-parse", "HEAD")
	index := git(t, root, "diff", "--cached", "--stat")
	s, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if _, created, err := s.Take(ctx, "one"); err != nil || !created {
		t.Fatalf("first checkpoint: created=%v err=%v", created, err)
	}
	objects := git(t, root, "count-objects")
	cp, created, err := s.Take(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	if created {
		t.Error("an unchanged tree made a new checkpoint")
	}
	if got := git(t, root, "count-objects"); got != objects {
		t.Errorf("an unchanged tree wrote objects: %s then %s", objects, got)
	}
	if got := git(t, root, "rev-parse", "HEAD"); got != head {
		t.Error("HEAD moved")
	}
	if got := git(t, root, "diff", "--cached", "--stat"); got != index {
		t.Errorf("the user's index changed: %q, want %q", got, index)
	}
	if got := git(t, root, "stash", "list"); got != "" {
		t.Errorf("stash touched: %q", got)
	}
	if got := strings.TrimSpace(git(t, root, "rev-parse", Ref)); got != cp.ID {
		t.Errorf("%s = %s, want %s", Ref, got, cp.ID)
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 1 || list[0].Reason != "one" {
		t.Fatalf("List = %+v, %v", list, err)
	}
}

func TestRestoreRefusesMissingCheckpoint(t *testing.T) {
	ctx := context.Background()
	for _, withGit := range []bool{true, false} {
		s, err := Open(ctx, project(t, withGit))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Restore(ctx, 1); err == nil || !strings.Contains(err.Error(), "no checkpoints") {
			t.Errorf("git=%v: restore with none: %v", withGit, err)
		}
		if _, _, err := s.Take(ctx, "x"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Restore(ctx, 5); err == nil || !strings.Contains(err.Error(), "no checkpoint 5") {
			t.Errorf("git=%v: restore 5 of 1: %v", withGit, err)
		}
	}
}

func TestCopiesStoreEachContentOnce(t *testing.T) {
	ctx := context.Background()
	root := project(t, false)
	s, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Take(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		n := 0
		filepath.WalkDir(filepath.Join(root, ".reach", "checkpoints", "objects"), func(_ string, d fs.DirEntry, _ error) error {
			if d != nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	first := count()
	if _, created, _ := s.Take(ctx, "b"); created {
		t.Error("unchanged tree made a new manifest")
	}
	write(t, root, "main.go", "changed\n", 0o644)
	if _, created, _ := s.Take(ctx, "c"); !created {
		t.Error("a change made no new manifest")
	}
	if got := count(); got != first+1 {
		t.Errorf("objects: %d then %d, want one more", first, got)
	}
	if !bytes.Contains([]byte(snapshot(t, root)["main.go"]), []byte("changed")) {
		t.Error("taking a checkpoint changed the file")
	}
}
