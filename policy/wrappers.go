package policy

import (
	"strings"
)

// unwrap returns the command a wrapper (env, timeout, xargs…) runs. The
// verdict is on the wrapper's own arguments; wrapped is false for
// programs that are not wrappers.
func unwrap(base string, argv []string) (inner []string, wrapped bool, v verdict) {
	args := argv[1:]
	v = allow("wrapper")
	switch base {
	case "env":
		for len(args) > 0 {
			a := args[0]
			switch {
			case a == "-i" || a == "--ignore-environment" || a == "-0" || a == "--null" || a == "-" || a == "-v" || a == "--debug":
				args = args[1:]
			case a == "-u" || a == "--unset" || a == "-C" || a == "--chdir":
				if a == "-C" || a == "--chdir" {
					v = ask("env-chdir", "it runs the command in another directory")
				}
				args = args[min(2, len(args)):]
			case strings.HasPrefix(a, "--unset=") || strings.HasPrefix(a, "-u"):
				args = args[1:]
			case strings.HasPrefix(a, "--chdir=") || strings.HasPrefix(a, "-C"):
				v = ask("env-chdir", "it runs the command in another directory")
				args = args[1:]
			case a == "-S" || a == "--split-string" || strings.HasPrefix(a, "--split-string=") || strings.HasPrefix(a, "-S"):
				s := strings.TrimPrefix(strings.TrimPrefix(a, "--split-string="), "-S")
				rest := args[1:]
				if a == "-S" || a == "--split-string" {
					if len(rest) == 0 {
						return nil, true, v
					}
					s, rest = rest[0], rest[1:]
				}
				return append(strings.Fields(s), rest...), true, v
			case strings.HasPrefix(a, "-") && a != "-":
				return nil, true, ask("wrapper-option", "env "+a+" is not understood by the policy")
			case strings.Contains(a, "=") && !strings.HasPrefix(a, "="):
				name, _, _ := strings.Cut(a, "=")
				if taintVars[name] {
					v = ask("changed-env", "it sets "+name+", which changes what programs do")
				}
				args = args[1:]
			default:
				return args, true, v
			}
		}
		return nil, true, v // env alone prints the environment
	case "timeout":
		args = skipOptions(args, "-s", "--signal", "-k", "--kill-after")
		if len(args) == 0 {
			return nil, true, v
		}
		return args[1:], true, v // the duration comes first
	case "nohup", "builtin", "setsid", "unbuffer", "chronic":
		return skipOptions(args), true, v
	case "command":
		if len(args) > 0 && (args[0] == "-v" || args[0] == "-V") {
			return nil, false, v
		}
		return skipOptions(args), true, v
	case "nice", "ionice", "stdbuf":
		return skipOptions(args, "-n", "--adjustment", "-c", "--class", "--classdata", "-t", "-i", "-o", "-e", "--input", "--output", "--error"), true, v
	case "time":
		return skipOptions(args, "-f", "--format", "-o", "--output"), true, v
	case "exec":
		return skipOptions(args, "-a"), true, v
	case "taskset":
		args = skipOptions(args)
		if len(args) == 0 {
			return nil, true, v
		}
		return args[1:], true, v
	case "xargs":
		rest := skipOptions(args, "-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-lines", "--replace", "--eof", "--max-chars", "--process-slot-var")
		if len(rest) == 0 {
			rest = []string{"echo"}
		}
		replace := ""
		for i, a := range args {
			switch {
			case a == "-I" && i+1 < len(args):
				replace = args[i+1]
			case a == "-i" || a == "--replace":
				replace = "{}"
			case strings.HasPrefix(a, "--replace="):
				replace = strings.TrimPrefix(a, "--replace=")
			}
		}
		inner = append([]string(nil), rest...)
		if replace != "" {
			for i := range inner {
				inner[i] = strings.ReplaceAll(inner[i], replace, dyn)
			}
			return inner, true, v
		}
		return append(inner, dyn), true, v
	}
	return nil, false, v
}

// skipOptions drops leading options (and the values of the valued ones)
// and returns the rest, which starts with the wrapped command.
func skipOptions(args []string, valued ...string) []string {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return args[1:]
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return args
		}
		takes := false
		for _, v := range valued {
			if a == v {
				takes = true
			}
		}
		if takes {
			args = args[min(2, len(args)):]
			continue
		}
		args = args[1:]
	}
	return args
}
