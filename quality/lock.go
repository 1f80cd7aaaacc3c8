package quality

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// staleLock is how old a lock file may get before it is taken to be left
// over by a run that died while saving (a save takes milliseconds).
const staleLock = 10 * time.Second

// lockFile takes an exclusive lock by creating path, waiting while another
// process holds it; the returned function releases it. It works on every
// platform (no flock) and breaks a lock left by a crashed run after
// staleLock.
func lockFile(ctx context.Context, path string) (func(), error) {
	wait := 2 * time.Millisecond
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if info, err := os.Stat(path); err == nil && time.Since(info.ModTime()) > staleLock {
			os.Remove(path)
			continue
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("lock %s: %w (another reach is saving; delete the file if none runs)", path, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}
