//go:build !unix

package walk

import (
	"os"
	"path/filepath"
)

// idOf returns the path of the file at abs with every symlink resolved:
// without inodes, that is what tells a directory seen before.
func idOf(abs string, _ os.FileInfo) (fileID, bool) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return fileID{}, false
	}
	return fileID{real: real}, true
}
