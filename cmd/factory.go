// Package cmd wires reach's command line: it parses flags, loads the
// configuration and hands over to app/. It holds no logic of its own.
package cmd

import (
	"os"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/iostreams"
)

// Factory gives commands their streams and their view of the process
// environment, so every command runs in tests with fakes.
type Factory struct {
	IO    *iostreams.IOStreams
	Env   config.Env
	Getwd func() (string, error)
}

// SystemFactory returns a Factory for the real process.
func SystemFactory(io *iostreams.IOStreams) *Factory {
	return &Factory{IO: io, Env: os.LookupEnv, Getwd: os.Getwd}
}
