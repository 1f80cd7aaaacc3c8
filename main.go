// Command reach is a terminal coding agent: it researches a repository,
// plans a change, edits the files and runs the tests.
package main

import (
	"context"
	"os"

	"github.com/reach-agent/reach/cmd"
	"github.com/reach-agent/reach/iostreams"
)

func main() {
	os.Exit(cmd.Main(context.Background(), cmd.SystemFactory(iostreams.System()), os.Args[1:]))
}
