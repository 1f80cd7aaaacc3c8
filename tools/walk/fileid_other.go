//go:build !unix

package walk

import (
	"os"
	"path/filepath"
)

// IDOf returns the path of the file at abs with every symlink resolved:
// without inodes, that is what tells a directory seen before.
func IDOf(abs string, _ os.FileInfo) (DirID, bool) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return DirID{}, false
	}
	return DirID{real: real}, true
}
