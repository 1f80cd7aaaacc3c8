package policy

import (
	"strings"
)

// fromDownload reports whether anything upstream downloads or decodes
// data: piping that into an interpreter runs code nobody has read.
func fromDownload(upstream []string) bool {
	for _, n := range upstream {
		if n == "download" || n == "decode" || downloaders[n] {
			return true
		}
	}
	return false
}

// shell judges sh/bash/zsh…: `-c CODE` is parsed and judged, a script
// file is asked, and code from a pipe or a run-time string is denied.
func (w *walker) shell(base string, args []string, st *state, in stdin) verdict {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c"):
			if i+1 >= len(args) {
				return ask("shell", base+" -c without code")
			}
			code := args[i+1]
			if isDyn(code) {
				return deny("dynamic-code", base+" -c runs code that is only known when the command runs (downloaded or computed)")
			}
			w.script(code, st.clone())
			return allow("shell-c")
		case a == "-s" || a == "-" || a == "--":
			return w.shellStdin(base, in, st)
		case a == "-o" || a == "-O" || a == "+o" || a == "+O" || a == "--rcfile" || a == "--init-file":
			i++
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
		default:
			return w.runScript(base, a, st)
		}
	}
	return w.shellStdin(base, in, st)
}

// shellStdin judges a shell that reads its program from standard input.
func (w *walker) shellStdin(base string, in stdin, st *state) verdict {
	switch {
	case in.piped:
		return deny("pipe-to-shell", "it pipes data into "+base+", which runs whatever arrives (curl … | sh); save the script, read it, then run it by name")
	case in.dynamic:
		return deny("dynamic-code", base+" reads code that is only known when the command runs")
	case in.script != nil:
		w.script(*in.script, st.clone())
		return allow("shell-heredoc")
	}
	return ask("shell", base+" reads commands from its input")
}

// runScript judges running a script file with a shell or source.
func (w *walker) runScript(base, file string, st *state) verdict {
	if isDyn(file) || file == procFile || strings.HasPrefix(file, "/dev/fd/") || file == "/dev/stdin" || strings.HasPrefix(file, "/proc/") {
		return deny("pipe-to-shell", base+" runs code from a stream or a process substitution ("+printable(file)+"), which nobody has read")
	}
	if pl, abs := w.locate(file, st, true); pl != placeUnknown && w.fetched[abs] {
		return deny("download-exec", "it runs "+file+", which this command line downloaded")
	}
	return ask("script", base+" runs the script "+file)
}

// interpreter judges python, perl, node…: their code is not parsed, so
// they are asked, and denied when fed downloaded or decoded data.
func (w *walker) interpreter(base string, args []string, in stdin) verdict {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-V" || args[0] == "-v" && base == "node") {
		return allow("read-only")
	}
	for _, a := range args {
		if a == procFile || strings.HasPrefix(a, "/dev/fd/") || a == "/dev/stdin" {
			return deny("pipe-to-shell", base+" runs code from a stream or a process substitution, which nobody has read")
		}
	}
	if in.piped && fromDownload(in.upstream) {
		ops, _ := operands(args)
		if len(ops) == 0 || ops[0] == "-" {
			return deny("pipe-to-shell", "it pipes downloaded or decoded data into "+base+", which runs it")
		}
	}
	return ask("interpreter", base+" runs a program the policy cannot read")
}

// download judges curl, wget and the like: they are asked (network), the
// files they write are checked and remembered, so running them is denied.
func (w *walker) download(base string, args []string, st *state) verdict {
	w.names = append(w.names, "download")
	var outs []string
	for i, a := range args {
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch {
		case base == "curl" && (a == "-o" || a == "--output"), base == "wget" && (a == "-O" || a == "--output-document"):
			outs = append(outs, next)
		case strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "--output-document="):
			_, v, _ := strings.Cut(a, "=")
			outs = append(outs, v)
		case base == "wget" && (a == "-P" || a == "--directory-prefix"):
			outs = append(outs, next+"/x")
		case base == "rsync" || base == "scp":
			ops, _ := operands(args, "-e", "--rsh", "-i", "-P", "-o", "-F", "-J", "-l", "-S")
			if len(ops) > 0 && !strings.Contains(ops[len(ops)-1], ":") {
				outs = []string{ops[len(ops)-1]}
			}
		}
	}
	if len(outs) > 0 {
		v := w.targets(outs, st, "write", true)
		for _, o := range outs {
			if pl, abs := w.locate(o, st, true); pl != placeUnknown {
				w.fetched[abs] = true
			}
		}
		if v.rule != "writes-file" {
			return v
		}
	}
	return ask("network", base+" uses the network")
}
