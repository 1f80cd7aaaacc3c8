package policy

import (
	"io"
	"maps"
	"os"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// dyn marks a value only known when the command runs (a command
// substitution, a variable set by read or by a command's output). It is
// made of private-use characters (the shell drops NUL bytes); a command
// that spells it out only makes itself look dynamic, which is judged
// more strictly, never less.
const dyn = "\uF8FF\u2047\uF8FF"

// procFile is what a process substitution expands to.
const procFile = "/dev/fd/63"

func isDyn(s string) bool { return strings.Contains(s, dyn) }

// state is what the walk knows at one point of a script: the working
// directory and the variables the script set itself.
type state struct {
	cwd     string            // "" when unknown
	vars    map[string]string // values set by the script; dyn when unknown
	tainted string            // a variable that changes what commands run (PATH…), if set
}

func (s *state) clone() *state {
	c := *s
	c.vars = maps.Clone(s.vars)
	if c.vars == nil {
		c.vars = map[string]string{}
	}
	return &c
}

// taintVars change which program a name runs or what it loads.
var taintVars = map[string]bool{
	"PATH": true, "LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "BASH_ENV": true, "ENV": true,
	"IFS": false, "GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_CONFIG": true, "GIT_CONFIG_GLOBAL": true,
	"GIT_CONFIG_PARAMETERS": true, "GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true, "GIT_SSH_COMMAND": true,
	"GIT_EDITOR": true, "PAGER": true, "EDITOR": true, "SHELLOPTS": true, "BASHOPTS": true, "PS4": true,
}

// environ layers the script's own variables over the process environment.
type environ struct {
	base  expand.Environ
	st    *state
	extra map[string]string
}

func (e environ) Get(name string) expand.Variable {
	if v, ok := e.extra[name]; ok {
		return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
	}
	if v, ok := e.st.vars[name]; ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	}
	switch name {
	case "IFS":
		if v := e.base.Get(name); v.IsSet() {
			return v
		}
		return expand.Variable{Set: true, Kind: expand.String, Str: " \t\n"}
	case "PWD":
		if e.st.cwd == "" {
			return expand.Variable{Set: true, Kind: expand.String, Str: dyn}
		}
		return expand.Variable{Set: true, Kind: expand.String, Str: e.st.cwd}
	case "#", "?", "$", "!", "PPID", "RANDOM", "SECONDS", "LINENO", "BASHPID", "EPOCHSECONDS", "SRANDOM":
		return expand.Variable{Set: true, Kind: expand.String, Str: "0"}
	case "@", "*", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "OLDPWD", "REPLY", "_":
		return expand.Variable{Set: true, Kind: expand.String, Str: dyn}
	}
	return e.base.Get(name)
}

func (e environ) Each(fn func(string, expand.Variable) bool) {
	for k, v := range e.st.vars {
		if !fn(k, expand.Variable{Set: true, Kind: expand.String, Str: v}) {
			return
		}
	}
	e.base.Each(fn)
}

func (w *walker) config(st *state) *expand.Config {
	cfg := &expand.Config{
		Env: environ{base: w.base, st: st},
		CmdSubst: func(out io.Writer, _ *syntax.CmdSubst) error {
			_, err := io.WriteString(out, dyn)
			return err
		},
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return procFile, nil },
	}
	if st.cwd != "" {
		cfg.ReadDir2 = readDirCapped
	}
	return cfg
}

// maxGlob caps how many directory entries a glob may read.
const maxGlob = 4096

func readDirCapped(dir string) ([]os.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(maxGlob)
}

// fields expands words into arguments; on failure every word is dynamic.
func (w *walker) fields(st *state, words ...*syntax.Word) []string {
	if len(words) == 0 {
		return nil
	}
	out, err := expand.Fields(w.config(st), words...)
	if err != nil {
		out = make([]string, len(words))
		for i := range out {
			out[i] = dyn
		}
	}
	return out
}

// literal expands one word without splitting or globbing (assignments,
// redirection targets, here-strings).
func (w *walker) literal(st *state, word *syntax.Word) string {
	if word == nil {
		return ""
	}
	s, err := expand.Literal(w.config(st), word)
	if err != nil {
		return dyn
	}
	return s
}

// document expands a here-document body; "" and false when it cannot be
// known statically.
func (w *walker) document(st *state, word *syntax.Word) (string, bool) {
	if word == nil {
		return "", true
	}
	s, err := expand.Document(w.config(st), word)
	if err != nil || isDyn(s) {
		return "", false
	}
	return s, true
}
