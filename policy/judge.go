package policy

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/reach-agent/reach/approval"
)

// verdict is the decision on one simple command.
type verdict struct {
	action approval.Action
	rule   string
	reason string
}

func allow(rule string) verdict { return verdict{action: approval.Allow, rule: rule} }
func ask(rule, reason string) verdict {
	return verdict{action: approval.Ask, rule: rule, reason: reason}
}
func deny(rule, reason string) verdict {
	return verdict{action: approval.Deny, rule: rule, reason: reason}
}

// stdBinDirs hold the system's own programs: /usr/bin/rm is rm.
var stdBinDirs = map[string]bool{"/bin": true, "/usr/bin": true, "/sbin": true, "/usr/sbin": true, "/usr/local/bin": true, "/usr/local/sbin": true}

// call walks one simple command and reports whether a user allow rule let
// it run.
func (w *walker) call(ce *syntax.CallExpr, redirs []*syntax.Redirect, st *state, in stdin) bool {
	w.visited[ce] = true
	for _, a := range ce.Assigns {
		w.nested(a, st)
	}
	for _, word := range ce.Args {
		w.nested(word, st)
	}
	if len(ce.Args) == 0 {
		var names []string
		for _, a := range ce.Assigns {
			w.assign(a, st)
			names = append(names, a.Name.Value+"=…")
		}
		w.add(Seen{Command: strings.Join(names, " "), Action: approval.Allow, Rule: "assignment"})
		return false
	}
	argv := w.fields(st, ce.Args...)
	cmdSt := st
	if len(ce.Assigns) > 0 {
		cmdSt = st.clone()
		for _, a := range ce.Assigns {
			w.assign(a, cmdSt)
		}
	}
	if len(argv) == 0 {
		w.add(Seen{Command: "(empty)", Action: approval.Allow, Rule: "empty-expansion"})
		return false
	}
	return w.judge(argv, cmdSt, in)
}

// judge decides on argv, unwrapping env, timeout, xargs and the like, and
// records what it saw. It reports whether a user allow rule decided.
func (w *walker) judge(argv []string, st *state, in stdin) bool {
	shown := printable(strings.Join(argv, " "))
	w.argvs = append(w.argvs, argv)
	if r, ok := w.p.matchRule(approval.Deny, argv); ok {
		w.add(Seen{Command: shown, Action: approval.Deny, Rule: r.name(), Reason: "the user's policy denies " + r.prefix})
		return false
	}
	name := argv[0]
	if isDyn(name) {
		w.deny(shown, "dynamic-command", "the program to run is computed when the command runs ($(…), a variable set at run time), so it cannot be checked; write the command out literally")
		return false
	}
	base, custom := name, false
	if strings.Contains(name, "/") {
		base = path.Base(name)
		custom = !stdBinDirs[path.Dir(name)]
		if pl, abs := w.locate(name, st, true); pl != placeUnknown && w.fetched[abs] {
			w.deny(shown, "download-exec", "it runs a file this command line downloaded")
			return false
		}
	}
	if inner, wrapped, v := unwrap(base, argv); wrapped {
		w.names = append(w.names, base)
		if v.action != approval.Allow {
			w.add(Seen{Command: shown, Action: v.action, Rule: v.rule, Reason: v.reason})
			if v.action == approval.Deny {
				return false
			}
		}
		if len(inner) == 0 {
			w.add(Seen{Command: shown, Action: approval.Allow, Rule: "read-only"})
			return false
		}
		return w.judge(inner, st, in)
	}
	var v verdict
	if w.funcs[name] {
		v = allow("function")
	} else {
		v = w.classify(base, argv, st, in)
	}
	w.names = append(w.names, base)
	if v.action == approval.Allow && custom {
		v = ask("program-path", "it runs "+name+", not a system program")
	}
	if v.action == approval.Allow && st.tainted != "" {
		v = ask("changed-env", "it runs after "+st.tainted+" was changed, which changes what programs do")
	}
	userAllowed := false
	if v.action != approval.Deny {
		if r, ok := w.p.matchRule(approval.Ask, argv); ok && v.action == approval.Allow {
			v = ask(r.name(), "the user's policy asks before "+r.prefix)
		} else if r, ok := w.p.matchRule(approval.Allow, argv); ok && v.action == approval.Ask {
			v, userAllowed = allow(r.name()), true
		}
	}
	w.add(Seen{Command: shown, Action: v.action, Rule: v.rule, Reason: v.reason})
	return userAllowed
}

// operands splits GNU-style arguments into operands and options; valued
// lists the options that take the next argument as their value.
func operands(args []string, valued ...string) (ops []string, opts map[string][]string) {
	opts = map[string][]string{}
	takes := map[string]bool{}
	for _, v := range valued {
		takes[v] = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(ops, args[i+1:]...), opts
		case strings.HasPrefix(a, "--"):
			k, v, hasValue := strings.Cut(a, "=")
			if !hasValue && takes[k] && i+1 < len(args) {
				i++
				v = args[i]
			}
			opts[k] = append(opts[k], v)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				k := "-" + a[j:j+1]
				if takes[k] {
					v := a[j+1:]
					if v == "" && i+1 < len(args) {
						i++
						v = args[i]
					}
					opts[k] = append(opts[k], v)
					break
				}
				opts[k] = append(opts[k], "")
			}
		default:
			ops = append(ops, a)
		}
	}
	return ops, opts
}

func has(opts map[string][]string, keys ...string) bool {
	for _, k := range keys {
		if _, ok := opts[k]; ok {
			return true
		}
	}
	return false
}

// targets judges the files a command writes or deletes.
func (w *walker) targets(paths []string, st *state, verb string, followLast bool) verdict {
	if len(paths) == 0 {
		return ask("not-read-only", "it changes files")
	}
	for _, p := range paths {
		pl, abs := w.locate(p, st, followLast)
		if v, bad := w.writeVerdict(pl, abs, p, verb); bad {
			return v
		}
	}
	w.wrote = true
	return ask("writes-file", "it changes files in the project")
}

// writeVerdict says whether writing at pl is refused (or, when the target
// is unknown under a sandbox, asked).
func (w *walker) writeVerdict(pl place, abs, shown, verb string) (verdict, bool) {
	w.wrote = true
	switch pl {
	case placeOutside:
		what := abs
		switch {
		case abs == "/":
			what = "/ (the whole system)"
		case w.p.home != "" && (abs == w.p.home || strings.HasPrefix(abs, w.p.home+"/")):
			what = abs + " (in your home directory)"
		}
		return deny("outside-root", "it would "+verb+" "+printable(what)+", outside the project root"), true
	case placeRoot:
		return deny("project-root", "it would "+verb+" "+printable(abs)+", which holds the whole project with its git history and reach's checkpoints"), true
	case placeProtected:
		return deny("protected-path", "it would "+verb+" "+printable(abs)+": .git and .reach hold the history, reach's checkpoints and config; use git commands instead"), true
	case placeDevice:
		return deny("device", "it would "+verb+" the device "+abs), true
	case placeUnknown:
		if w.p.sandboxed {
			return ask("target-unknown", "where it writes ("+printable(shown)+") is only known when it runs; the sandbox confines it"), true
		}
		return deny("target-unknown", "where it writes ("+printable(shown)+") is only known when it runs and no sandbox confines it; write the path literally"), true
	}
	return verdict{}, false
}
