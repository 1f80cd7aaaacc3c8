package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/reach-agent/reach/tools/findfile"
)

// rank times findfile.Rank (default threshold 60) per query over the list,
// runs times each, and reports its top result and the median time: on a
// shared machine one run can be preempted.
func rank(ctx context.Context, list, queries string, runs int, stdout io.Writer) error {
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
		var ms []findfile.Match
		times := make([]time.Duration, runs)
		for i := range times {
			start := time.Now()
			ms = findfile.Rank(ctx, paths, f[1], 60, 10)
			times[i] = time.Since(start)
		}
		slices.Sort(times)
		took := times[len(times)/2]
		top := ""
		if len(ms) > 0 {
			top = ms[0].Path
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\n", f[0], f[2], top, took.Microseconds())
	}
	return w.Flush()
}
