package checkpoint

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tree10k makes a git repository of 10,000 small files in 100
// directories, committed, plus nothing else.
func tree10k(b *testing.B) string {
	b.Helper()
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range 10000 {
		write(b, root, fmt.Sprintf("d%02d/f%04d.txt", i%100, i), strings.Repeat(fmt.Sprintf("line %d\n", i), 20), 0o644)
	}
	// Files older than the index, as in a real checkout (fresh ones are
	// "racily clean" and hashed again by every git add).
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, _ fs.DirEntry, _ error) error { return os.Chtimes(p, old, old) })
	git(b, root, "init", "-q", "-b", "main")
	git(b, root, "config", "gc.auto", "0")
	git(b, root, "add", "-A")
	git(b, root, "commit", "-q", "-m", "10k")
	return root
}

func looseObjects(b *testing.B, root string) int {
	b.Helper()
	n := 0
	for _, line := range strings.Split(git(b, root, "count-objects", "-v"), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && (k == "count" || k == "in-pack") {
			c, _ := strconv.Atoi(v)
			n += c
		}
	}
	return n
}

// BenchmarkCheckpoint10k measures one checkpoint of a 10,000-file tree:
// the first one (the private index is built), one of an unchanged tree,
// and one after a single file changed; new-objects/op counts loose git
// objects written per checkpoint.
func BenchmarkCheckpoint10k(b *testing.B) {
	ctx := context.Background()
	root := tree10k(b)
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s, err := Open(ctx, root)
			if err != nil {
				b.Fatal(err)
			}
			_ = os.Remove(s.b.(*gitStore).index)
			git(b, root, "update-ref", "-d", Ref)
			before := looseObjects(b, root)
			b.StartTimer()
			if _, _, err := s.Take(ctx, "bench"); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			b.ReportMetric(float64(looseObjects(b, root)-before), "new-objects/op")
			b.StartTimer()
		}
	})
	s, err := Open(ctx, root)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := s.Take(ctx, "warm"); err != nil {
		b.Fatal(err)
	}
	b.Run("unchanged", func(b *testing.B) {
		before := looseObjects(b, root)
		for b.Loop() {
			if _, created, err := s.Take(ctx, "bench"); err != nil || created {
				b.Fatalf("created=%v err=%v", created, err)
			}
		}
		b.ReportMetric(float64(looseObjects(b, root)-before)/float64(b.N), "new-objects/op")
	})
	b.Run("one-file-changed", func(b *testing.B) {
		before := looseObjects(b, root)
		i := 0
		for b.Loop() {
			b.StopTimer()
			i++
			write(b, root, "d07/f0007.txt", fmt.Sprintf("edit %d\n", i), 0o644)
			_ = os.Chtimes(filepath.Join(root, "d07/f0007.txt"), time.Now().Add(-time.Minute), time.Now().Add(-time.Minute))
			b.StartTimer()
			if _, _, err := s.Take(ctx, "bench"); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(looseObjects(b, root)-before)/float64(b.N), "new-objects/op")
	})
}
