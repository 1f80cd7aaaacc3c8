package phases

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// MaxInstructionsBytes caps AGENTS.md (or its stand-ins) in prompts.
const MaxInstructionsBytes = 32 << 10

// maxListing is how many paths the short file listing shows.
const maxListing = 200

// Project is what every prompt says about the repository.
type Project struct {
	Root             string
	Instructions     string // AGENTS.md, or CLAUDE.md / CONVENTIONS.md
	InstructionsFile string
	Listing          string // a short file listing
}

// LoadProject reads the instruction file and a short listing of root.
func LoadProject(ctx context.Context, root string) (Project, error) {
	p := Project{Root: root}
	for _, name := range []string{"AGENTS.md", "CLAUDE.md", "CONVENTIONS.md"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue
		}
		if len(data) > MaxInstructionsBytes {
			data = append(data[:MaxInstructionsBytes:MaxInstructionsBytes], []byte(fmt.Sprintf("\n[%s truncated at %d KiB]", name, MaxInstructionsBytes>>10))...)
		}
		p.Instructions, p.InstructionsFile = string(data), name
		break
	}
	files, err := listFiles(ctx, root)
	if err != nil {
		return p, fmt.Errorf("list project files: %w", err)
	}
	p.Listing = formatListing(files)
	return p, nil
}

// listFiles prefers git's view (tracked + untracked, not ignored) and
// falls back to a shallow walk outside git.
func listFiles(ctx context.Context, root string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-co", "--exclude-standard", "-z")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		var files []string
		for _, f := range bytes.Split(out, []byte{0}) {
			if len(f) > 0 {
				files = append(files, string(f))
			}
		}
		sort.Strings(files)
		return files, nil
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are skipped, not fatal
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || skipDir(d.Name()) || strings.Count(rel, string(filepath.Separator)) >= 3) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasPrefix(d.Name(), ".") {
			files = append(files, filepath.ToSlash(rel))
		}
		if len(files) > 5000 {
			return fs.SkipAll
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func skipDir(name string) bool {
	switch name {
	case "node_modules", "vendor", "__pycache__", "dist", "build", "venv", "env":
		return true
	}
	return false
}

func formatListing(files []string) string {
	var b strings.Builder
	w := bufio.NewWriter(&b)
	for i, f := range files {
		if i == maxListing {
			fmt.Fprintf(w, "... and %d more files (use list_directory_tree or fuzzy_find_project_files)\n", len(files)-maxListing)
			break
		}
		fmt.Fprintln(w, f)
	}
	if len(files) == 0 {
		fmt.Fprintln(w, "(no files)")
	}
	w.Flush()
	return b.String()
}
