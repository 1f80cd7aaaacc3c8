package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/reach-agent/reach/tools/findfile"
)

// rank times findfile.Rank (default threshold 60) per query over the list
// and reports its top result.
func rank(ctx context.Context, list, queries string, stdout io.Writer) error {
	paths, err := readLines(list)
	if err != nil {
		return err
	}
	qs, err := readLines(queries)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	for _, line := range qs {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return fmt.Errorf("bad query line %q", line)
		}
		start := time.Now()
		ms := findfile.Rank(ctx, paths, f[1], 60, 10)
		took := time.Since(start)
		top := ""
		if len(ms) > 0 {
			top = ms[0].Path
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\n", f[0], f[2], top, took.Microseconds())
	}
	return w.Flush()
}
