// Package version reports the build's version, commit and date, which the
// release build injects with -ldflags "-X".
package version

import "runtime/debug"

// Set at link time by the release build (see .goreleaser.yaml).
var (
	Version = "dev"
	Commit  = ""
	Date    = ""
)

// String is the one-line version shown by `reach version`.
func String() string {
	v, c, d := Version, Commit, Date
	if c == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					c = s.Value
				case "vcs.time":
					if d == "" {
						d = s.Value
					}
				}
			}
		}
	}
	out := "reach " + v
	if c != "" {
		if len(c) > 12 {
			c = c[:12]
		}
		out += " (" + c
		if d != "" {
			out += ", " + d
		}
		out += ")"
	}
	return out
}
