// Package policy judges shell commands before they run: it parses them
// with mvdan.cc/sh, walks every simple command they contain and decides
// allow (known read-only), ask (everything else) or deny (the hard list
// of SPEC §5), deny winning.
package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reach-agent/reach/approval"
)

// Options configures a Policy.
type Options struct {
	// Root is the project root (absolute, symlinks resolved); commands may
	// write only inside it and the temp directories.
	Root string
	// Env is the environment the commands will run with ("K=V" pairs);
	// variables are expanded with it, since the shell will.
	Env []string
	// TempDirs are writable besides the root; nil means /tmp, /var/tmp,
	// /dev/shm and $TMPDIR.
	TempDirs []string
	// Sandboxed says an OS sandbox confines writes. Without one, a write
	// whose target cannot be worked out is denied rather than asked.
	Sandboxed bool
	// Allow, Ask and Deny are user rules: command prefixes ("go test",
	// "npm run *"), each optionally followed by "# example; example"
	// commands that must match the rule (checked by New).
	Allow, Ask, Deny []string
}

// Policy implements approval.Policy. It holds no mutable state and is
// safe for concurrent use.
type Policy struct {
	root      string
	home      string
	env       []string
	temps     []string
	sandboxed bool
	rules     []rule
}

var _ approval.Policy = (*Policy)(nil)

// New returns a Policy for opts. It fails when a user rule is malformed
// or does not match one of its own examples.
func New(opts Options) (*Policy, error) {
	if !filepath.IsAbs(opts.Root) {
		return nil, fmt.Errorf("policy: the project root %q must be an absolute path", opts.Root)
	}
	p := &Policy{root: filepath.Clean(opts.Root), env: opts.Env, sandboxed: opts.Sandboxed}
	p.home = lookupEnv(opts.Env, "HOME")
	p.temps = opts.TempDirs
	if p.temps == nil {
		p.temps = []string{"/tmp", "/var/tmp", "/dev/shm"}
		if t := lookupEnv(opts.Env, "TMPDIR"); filepath.IsAbs(t) {
			p.temps = append(p.temps, t)
		}
	}
	for i, t := range p.temps {
		if real, err := filepath.EvalSymlinks(t); err == nil {
			p.temps[i] = real
		}
	}
	for _, list := range []struct {
		action  approval.Action
		entries []string
	}{{approval.Deny, opts.Deny}, {approval.Ask, opts.Ask}, {approval.Allow, opts.Allow}} {
		for _, entry := range list.entries {
			r, err := parseRule(list.action, entry)
			if err != nil {
				return nil, err
			}
			p.rules = append(p.rules, r)
		}
	}
	for _, r := range p.rules {
		if err := p.checkExamples(r); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Seen is one simple command the policy judged.
type Seen struct {
	Command string          // its words after expansion, joined by spaces
	Action  approval.Action // the verdict on this command alone
	Rule    string
	Reason  string
}

// Report is the full result of judging a command line.
type Report struct {
	Verdict approval.Verdict
	// ReadOnly is true when every simple command is a known read-only
	// one with no file writes: no checkpoint is needed before it.
	ReadOnly bool
	Commands []Seen
}

// Decide implements approval.Policy.
func (p *Policy) Decide(command string) approval.Verdict {
	return p.Check(command).Verdict
}

// Check judges command and reports every simple command it saw.
func (p *Policy) Check(command string) Report {
	w := newWalker(p)
	w.script(command, w.initial())
	w.sweep()
	rep := Report{ReadOnly: true, Commands: w.seen}
	var ask, deny *Seen
	for i := range w.seen {
		s := &w.seen[i]
		switch s.Action {
		case approval.Deny:
			if deny == nil {
				deny = s
			}
		case approval.Ask:
			if ask == nil {
				ask = s
			}
		}
	}
	if w.wrote || ask != nil || deny != nil {
		rep.ReadOnly = false
	}
	switch {
	case deny != nil:
		rep.Verdict = approval.Verdict{Action: approval.Deny, Rule: deny.Rule, Reason: deny.Reason}
	case ask != nil:
		rep.Verdict = approval.Verdict{Action: approval.Ask, Rule: ask.Rule, Reason: ask.Reason}
	case len(w.seen) == 0:
		rep.Verdict = approval.Verdict{Action: approval.Ask, Rule: "empty", Reason: "no command found"}
	default:
		rule := "read-only"
		for _, s := range w.seen {
			if strings.HasPrefix(s.Rule, "user-allow") {
				rule = s.Rule
				rep.ReadOnly = false
			}
		}
		rep.Verdict = approval.Verdict{Action: approval.Allow, Rule: rule, Reason: "known read-only commands"}
	}
	return rep
}

func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// DefaultEnv is the environment a Policy should expand with when commands
// inherit reach's own.
func DefaultEnv() []string { return os.Environ() }
