//go:build unix

// Command navbench is the Go side of scripts/bench: it runs a navigation
// tool like `reach tools call`, generates the synthetic path list and fuzzy
// queries, and measures the fuzzy ranking in process.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/nav"
	"github.com/reach-agent/reach/tools/walk"
	"github.com/reach-agent/reach/workspace"
)

const usage = `usage:
  navbench call NAME 'JSON'        run one navigation tool in the current directory (exit 0 ran, 1 tool error, 2 bad call)
  navbench files DIR               list DIR's files with the walker (hidden included), one per line
  navbench genpaths N SEED         print N synthetic paths built from the words of the paths in SEED
  navbench genqueries LIST PER     print PER queries of each kind as kind<TAB>query<TAB>target
  navbench rank LIST QUERIES RUNS  rank each query over LIST RUNS times; print kind<TAB>target<TAB>top1<TAB>wall µs<TAB>CPU µs (medians)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	ctx := context.Background()
	var err error
	switch {
	case args[0] == "call" && len(args) == 3:
		return call(ctx, args[1], args[2], stdout, stderr)
	case args[0] == "files" && len(args) == 2:
		var fs []string
		fs, err = walk.Files(ctx, args[1], walk.Options{Hidden: true})
		if err == nil {
			w := bufio.NewWriter(stdout)
			for _, f := range fs {
				fmt.Fprintln(w, f)
			}
			err = w.Flush()
		}
	case args[0] == "genpaths" && len(args) == 3:
		err = genPaths(args[1], args[2], stdout)
	case args[0] == "genqueries" && len(args) == 3:
		err = genQueries(args[1], args[2], stdout)
	case args[0] == "rank" && len(args) == 4:
		var runs int
		if runs, err = strconv.Atoi(args[3]); err == nil && runs > 0 {
			err = rank(ctx, args[1], args[2], runs, stdout)
		} else {
			err = fmt.Errorf("RUNS must be a positive number, got %q", args[3])
		}
	default:
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "navbench:", err)
		return 1
	}
	return 0
}

// call mirrors `reach tools call`: the tool runs through the executor.
func call(ctx context.Context, name, args string, stdout, stderr io.Writer) int {
	if !json.Valid([]byte(args)) {
		fmt.Fprintln(stderr, "navbench: arguments are not valid JSON")
		return 2
	}
	root, err := workspace.New(".")
	if err != nil {
		fmt.Fprintln(stderr, "navbench:", err)
		return 2
	}
	reg := tools.NewRegistry()
	if err := reg.Register(nav.Tools(root)...); err != nil {
		fmt.Fprintln(stderr, "navbench:", err)
		return 2
	}
	if _, ok := reg.Lookup(name); !ok {
		fmt.Fprintf(stderr, "navbench: unknown tool %q\n", name)
		return 2
	}
	ex := &tools.Executor{Registry: reg}
	res := ex.Execute(ctx, tools.Call{Name: name, Arguments: args}, []string{name})
	out, _ := json.Marshal(res)
	fmt.Fprintln(stdout, string(out))
	if !res.Success {
		return 1
	}
	return 0
}

func readLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return strings.FieldsFunc(string(data), func(r rune) bool { return r == '\n' }), nil
}
