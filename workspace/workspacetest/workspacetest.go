// Package workspacetest makes throwaway project roots for tests.
package workspacetest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reach-agent/reach/workspace"
)

// New writes files (slash-separated paths relative to the root, with their
// contents) into a new temporary directory and returns it as a Root.
func New(t testing.TB, files map[string]string) *workspace.Root {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return root
}
