//go:build unix

package walk

import (
	"os"
	"syscall"
)

// IDOf returns the device and inode of the file at abs.
func IDOf(_ string, fi os.FileInfo) (DirID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return DirID{}, false
	}
	return DirID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
