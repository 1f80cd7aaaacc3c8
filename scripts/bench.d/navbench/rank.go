//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/reach-agent/reach/tools/findfile"
)

// rank times findfile.Rank (default threshold 60) per query over the list,
// runs times each, and reports its top result and the median wall and CPU
// times: on a shared machine one run can be preempted.
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
		cpus := make([]time.Duration, runs)
		for i := range times {
			start, cpu0 := time.Now(), cpuTime()
			ms = findfile.Rank(ctx, paths, f[1], 60, 10)
			times[i], cpus[i] = time.Since(start), cpuTime()-cpu0
		}
		slices.Sort(times)
		slices.Sort(cpus)
		took, cpu := times[len(times)/2], cpus[len(cpus)/2]
		top := ""
		if len(ms) > 0 {
			top = ms[0].Path
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\n", f[0], f[2], top, took.Microseconds(), cpu.Microseconds())
	}
	return w.Flush()
}

// cpuTime is the process's user+system time so far: on a shared machine
// it shows the work a query costs whatever the scheduler did.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
