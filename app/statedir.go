package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// EnsureStateDir creates the project state directory (and sub, if given)
// and keeps it out of version control with a .gitignore of its own, so a
// careless `git add -A` never commits the database, logs or checkpoints.
func EnsureStateDir(stateDir string, sub ...string) (string, error) {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return "", fmt.Errorf("create state directory %s: %w", stateDir, err)
	}
	ignore := filepath.Join(stateDir, ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(ignore, []byte("# reach's state: database, logs, checkpoints, caches\n*\n"), 0o644); err != nil {
			return "", fmt.Errorf("write %s: %w", ignore, err)
		}
	}
	dir := filepath.Join(append([]string{stateDir}, sub...)...)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	return dir, nil
}
