package policy

import (
	"regexp"
	"strings"
	"sync"
)

// readOnly lists commands that only read files and print, with a check on
// their arguments that returns why they are not read-only ("" when they are).
var readOnly = map[string]func(args []string) string{}

func init() {
	for _, name := range strings.Fields(`ls ll la cat head tail wc pwd echo printf true false test [ which whereis type file stat
		du df diff cmp cut tr nl basename dirname realpath readlink whoami id uname printenv grep egrep fgrep zgrep
		ag ack seq sleep expr comm join paste fold fmt rev tac expand unexpand base64 base32 od hexdump strings
		md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum jq column lsblk free uptime nproc
		locale tty groups getconf arch exit return break continue shift set shopt wait jobs : local export
		declare typeset readonly cal factor numfmt pathchk lscpu ps pgrep lsof logname users w who tput dircolors`) {
		readOnly[name] = none
	}
	readOnly["rg"] = forbid("--pre", "--pre-glob")
	readOnly["fd"] = forbid("-x", "--exec", "-X", "--exec-batch")
	readOnly["fdfind"] = readOnly["fd"]
	readOnly["tree"] = forbid("-o", "--output")
	readOnly["date"] = forbid("-s", "--set")
	readOnly["hostname"] = func(args []string) string {
		if ops, _ := operands(args); len(ops) > 0 {
			return "hostname with an argument renames the machine"
		}
		return ""
	}
	readOnly["hash"] = forbid("-p")
	readOnly["go"] = func(args []string) string {
		if len(args) == 0 {
			return ""
		}
		switch args[0] {
		case "version", "list", "doc", "help":
			return ""
		case "env":
			return forbid("-w", "-u")(args[1:])
		}
		return "go " + args[0] + " builds or changes files"
	}
}

// forbid returns a check refusing the given options (also as --opt=value).
func forbid(opts ...string) func([]string) string {
	return func(args []string) string {
		for _, a := range args {
			k, _, _ := strings.Cut(a, "=")
			for _, o := range opts {
				if k == o || len(o) == 2 && strings.HasPrefix(a, o) && !strings.HasPrefix(a, "--") {
					return "its option " + o + " runs a program or writes a file"
				}
			}
		}
		return ""
	}
}

// sedSafe matches sed scripts that only print or substitute to stdout.
var sedSafe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*((\d+|\$|/[^/]*/)(,(\d+|\$|/[^/]*/|\+\d+))?\s*)?(p|d|q|=|l|s/[^/]*/[^/]*/[gpiIm0-9]*|y/[^/]*/[^/]*/)\s*;?)+$`)
})

func (w *walker) sed(args []string, st *state) verdict {
	ops, opts := operands(args, "-e", "--expression", "-f", "--file", "-l", "--line-length")
	if has(opts, "-i", "--in-place") || hasPrefixKey(opts, "--in-place") {
		files := ops
		if !has(opts, "-e", "--expression", "-f", "--file") && len(files) > 0 {
			files = files[1:]
		}
		return w.targets(files, st, "edit", true)
	}
	scripts := append(opts["-e"], opts["--expression"]...)
	if len(scripts) == 0 && len(ops) > 0 {
		scripts = ops[:1]
	}
	if has(opts, "-f", "--file") || len(scripts) == 0 {
		return ask("not-read-only", "sed runs a script file")
	}
	for _, s := range scripts {
		if !sedSafe().MatchString(s) {
			return ask("not-read-only", "the sed script may write files or run commands (w, e)")
		}
	}
	return allow("read-only")
}

func hasPrefixKey(opts map[string][]string, prefix string) bool {
	for k := range opts {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// find judges find's actions: -delete deletes under its start paths,
// -exec runs a command (judged with {} standing for a found path),
// -fprint writes a file.
func (w *walker) find(args []string, st *state, in stdin) verdict {
	var starts []string
	i := 0
	for i < len(args) && (strings.HasPrefix(args[i], "-H") || args[i] == "-L" || args[i] == "-P" || strings.HasPrefix(args[i], "-D") || strings.HasPrefix(args[i], "-O")) {
		i++
	}
	for ; i < len(args) && !strings.HasPrefix(args[i], "-") && args[i] != "(" && args[i] != "!"; i++ {
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	found := dyn
	if len(starts) == 1 {
		found = strings.TrimSuffix(starts[0], "/") + "/" + dyn
		if pl, _ := w.locate(starts[0], st, true); pl != placeUnknown {
			found = strings.TrimSuffix(starts[0], "/") + "/found"
		}
	}
	result := allow("read-only")
	for ; i < len(args); i++ {
		switch a := args[i]; a {
		case "-delete":
			under := make([]string, len(starts))
			for j, s := range starts {
				under[j] = strings.TrimSuffix(s, "/") + "/found"
			}
			v := w.targets(under, st, "delete files under", false)
			if v.rule != "writes-file" {
				return v
			}
			result = v
		case "-exec", "-execdir", "-ok", "-okdir":
			var inner []string
			for i++; i < len(args) && args[i] != ";" && args[i] != "+"; i++ {
				inner = append(inner, strings.ReplaceAll(args[i], "{}", found))
			}
			if len(inner) == 0 {
				return ask("not-read-only", "find "+a+" without a command")
			}
			if a == "-execdir" || a == "-okdir" {
				sub := st.clone()
				sub.cwd = ""
				w.judge(inner, sub, stdin{})
			} else {
				w.judge(inner, st.clone(), stdin{})
			}
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(args) {
				if v := w.targets([]string{args[i+1]}, st, "write", true); v.rule != "writes-file" {
					return v
				}
			}
			result = ask("writes-file", "find "+a+" writes a file")
		}
	}
	return result
}

// decoder reports whether a command decodes data (base64 -d and the like),
// which piped into an interpreter hides what runs.
func decoder(base string, args []string) bool {
	switch base {
	case "base64", "base32", "basenc":
		return has(flagSet(args), "-d", "--decode", "-D")
	case "xxd":
		return has(flagSet(args), "-r", "-revert")
	case "openssl":
		return len(args) > 0 && (args[0] == "enc" || args[0] == "base64")
	case "uudecode", "gunzip", "zcat", "bunzip2", "xz", "unxz", "gzip", "rev", "tr":
		return true
	}
	return false
}

func flagSet(args []string) map[string][]string {
	_, opts := operands(args)
	return opts
}
