// Package phases defines reach's three phases — research, planning,
// implementation — as toolsets selected from the registry by tag and the
// prompts that steer the model through each.
package phases

import (
	"github.com/reach-agent/reach/tools"
)

// Names of the phases, as they appear in events and the audit log.
const (
	Research       = "research"
	Planning       = "planning"
	Implementation = "implementation"
	Chat           = "chat"
)

// Options change which tools a phase offers.
type Options struct {
	UseAider bool // edit through run_programming_task instead of the native edit tools
}

// Toolset returns the specs a phase offers: the base set (every phase) plus
// the phase's own tag.
func Toolset(reg *tools.Registry, phase string, opts Options) []tools.Spec {
	return reg.Select(func(s tools.Spec) bool {
		if s.HasGroup(tools.GroupBase) {
			return true
		}
		switch phase {
		case Research:
			return s.HasGroup(tools.GroupResearch)
		case Planning:
			return s.HasGroup(tools.GroupPlanning)
		case Implementation:
			if opts.UseAider {
				return s.HasGroup(tools.GroupAider)
			}
			return s.HasGroup(tools.GroupImplementation)
		case Chat:
			// A conversation may research and edit, but plans nothing.
			if opts.UseAider {
				return s.HasGroup(tools.GroupResearch) || s.HasGroup(tools.GroupAider)
			}
			return s.HasGroup(tools.GroupResearch) || s.HasGroup(tools.GroupImplementation)
		}
		return false
	})
}
