// Command rgexec runs rg with its arguments and copies rg's output: the
// least any Go program that searches through rg can do. scripts/bench
// times it against rg alone, the floor under `reach tools call
// ripgrep_search` (Go start-up, a pipe, a process start).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command("rg", os.Args[1:]...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "rgexec:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "rgexec:", err)
		os.Exit(2)
	}
	_, cerr := io.Copy(os.Stdout, out)
	werr := cmd.Wait()
	var exit *exec.ExitError
	switch {
	case cerr != nil:
		fmt.Fprintln(os.Stderr, "rgexec: copy output:", cerr)
		os.Exit(2)
	case errors.As(werr, &exit):
		os.Exit(exit.ExitCode())
	case werr != nil:
		fmt.Fprintln(os.Stderr, "rgexec:", werr)
		os.Exit(2)
	}
}
