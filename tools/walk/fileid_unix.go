//go:build unix

package walk

import (
	"os"
	"syscall"
)

// idOf returns the device and inode of the file at abs.
func idOf(_ string, fi os.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
