package policy

import (
	"path"
	"strings"
)

// Programs by what they are to the policy.
var (
	shells       = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh")
	interpreters = set("python", "python2", "python3", "perl", "ruby", "node", "nodejs", "php", "lua", "deno", "bun", "Rscript", "tclsh", "pwsh", "osascript")
	escalate     = set("sudo", "su", "doas", "pkexec", "runuser", "run0", "sg", "newgrp", "calife")
	disk         = set("mkfs", "mke2fs", "mkswap", "fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "wipefs", "blkdiscard", "badblocks", "hdparm", "cryptsetup", "losetup", "zpool", "pvcreate", "vgcreate", "lvcreate", "lvremove")
	system       = set("mount", "umount", "insmod", "rmmod", "modprobe", "reboot", "shutdown", "halt", "poweroff", "init", "telinit", "swapon", "swapoff", "setenforce", "nsenter", "chroot", "pivot_root", "capsh", "setcap", "aa-disable", "aa-teardown", "aa-complain", "apparmor_parser", "iptables", "ip6tables", "nft", "ufw", "systemctl", "service", "crontab", "at", "visudo", "useradd", "userdel", "usermod", "passwd", "chpasswd", "bwrap", "firejail", "unshare", "landlock", "seccomp")
	downloaders  = set("curl", "wget", "fetch", "aria2c", "nc", "ncat", "netcat", "socat", "http", "https", "lynx", "links", "tftp", "ftp", "scp", "sftp", "rsync")
	deleters     = set("rm", "rmdir", "unlink", "shred", "srm")
	creators     = set("touch", "mkdir", "truncate", "mkfifo", "tee")
	modeChangers = set("chmod", "chown", "chgrp", "chattr", "setfacl", "chcon")
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// classify decides on one unwrapped simple command.
func (w *walker) classify(base string, argv []string, st *state, in stdin) verdict {
	args := argv[1:]
	switch {
	case strings.HasPrefix(base, "mkfs.") || disk[base]:
		return deny("disk", base+" formats or repartitions disks")
	case escalate[base]:
		return deny("privilege", base+" runs commands as another user; reach never escalates privileges")
	case system[base]:
		return deny("system", base+" changes the system itself (mounts, modules, services, security settings or namespaces), outside any project")
	case shells[base] || base == "busybox" && len(args) > 0 && shells[args[0]]:
		if base == "busybox" {
			args = args[1:]
		}
		return w.shell(base, args, st, in)
	case interpreters[base] || strings.HasPrefix(base, "python3.") || strings.HasPrefix(base, "perl5"):
		return w.interpreter(base, args, in)
	case downloaders[base]:
		return w.download(base, args, st)
	case deleters[base]:
		ops, _ := operands(args)
		return w.targets(ops, st, "delete", false)
	case creators[base]:
		ops, _ := operands(args, "-s", "--size", "-r", "--reference", "-m", "--mode", "-d", "--date", "-t", "--context")
		return w.targets(ops, st, "write", true)
	case modeChangers[base]:
		return w.changeMode(base, args, st)
	}
	switch base {
	case "eval":
		code := strings.Join(args, " ")
		if isDyn(code) {
			return deny("dynamic-code", "eval runs code that is only known when the command runs")
		}
		w.script(code, st)
		return allow("eval")
	case "source", ".":
		if len(args) == 0 {
			return ask("source", "it runs a script in the current shell")
		}
		return w.runScript(base, args[0], st)
	case "alias":
		for _, a := range args {
			if _, value, ok := strings.Cut(a, "="); ok {
				w.script(value, st.clone())
			}
		}
		return allow("alias")
	case "trap":
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			w.script(args[0], st.clone())
		}
		return allow("trap")
	case "watch":
		code := strings.Join(skipOptions(args, "-n", "--interval", "-d", "-g"), " ")
		if isDyn(code) {
			return deny("dynamic-code", "watch runs code that is only known when the command runs")
		}
		w.script(code, st.clone())
		return allow("watch")
	case "kill", "pkill", "killall":
		for _, a := range args {
			if a == "-1" && base == "kill" || a == "-9" && base == "kill" && len(args) > 1 && args[len(args)-1] == "-1" {
				return deny("kill-all", "it signals every process of the user")
			}
		}
		return ask("not-read-only", "it signals processes")
	case "mv":
		ops, opts := operands(args, "-t", "--target-directory", "-S", "--suffix")
		return w.targets(append(ops, opts["-t"]...), st, "move or overwrite", false)
	case "cp", "install", "ln":
		return w.copyLike(base, args, st)
	case "dd":
		var out []string
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				out = append(out, v)
			}
		}
		if len(out) == 0 {
			return ask("not-read-only", "dd copies raw data")
		}
		return w.targets(out, st, "write", true)
	case "sed":
		return w.sed(args, st)
	case "find":
		return w.find(args, st, in)
	case "git":
		return w.git(args, st)
	case "reach":
		return reachCmd(args)
	case "cd", "pushd":
		w.chdir(args, st)
		return allow("cd")
	case "popd":
		st.cwd = ""
		return allow("cd")
	case "read", "mapfile", "readarray", "getopts":
		ops, _ := operands(args, "-a", "-d", "-n", "-N", "-p", "-t", "-u", "-C", "-c", "-O", "-s")
		for _, name := range ops {
			st.vars[name] = dyn
		}
		if base == "read" && len(ops) == 0 {
			st.vars["REPLY"] = dyn
		}
		return allow("read")
	case "unset":
		ops, _ := operands(args)
		for _, name := range ops {
			st.vars[name] = ""
		}
		return allow("unset")
	case "tar":
		return w.tar(args, st)
	case "sort":
		_, opts := operands(args, "-o", "--output", "-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "-T", "--temporary-directory", "--compress-program", "--parallel", "--files0-from", "--batch-size")
		if has(opts, "--compress-program") {
			return ask("not-read-only", "sort --compress-program runs a program")
		}
		if out := append(opts["-o"], opts["--output"]...); len(out) > 0 {
			return w.targets(out, st, "write", true)
		}
		return allow("read-only")
	case "uniq", "xxd":
		ops, _ := operands(args, "-f", "-s", "-w", "-c", "-g", "-l", "-o", "-n", "-C")
		if len(ops) > 1 {
			return w.targets(ops[1:], st, "write", true)
		}
		return allow("read-only")
	}
	if decoder(base, args) {
		w.names = append(w.names, "decode")
	}
	if check, ok := readOnly[base]; ok {
		if reason := check(args); reason != "" {
			return ask("not-read-only", reason)
		}
		return allow("read-only")
	}
	return ask("not-read-only", base+" is not a known read-only command")
}

func (w *walker) chdir(args []string, st *state) {
	ops, _ := operands(args)
	switch {
	case len(ops) == 0:
		st.cwd = w.p.home
	case ops[0] == "-":
		st.cwd = ""
	default:
		pl, abs := w.locate(ops[0], st, true)
		if pl == placeUnknown {
			st.cwd = ""
			return
		}
		st.cwd = abs
	}
}

func (w *walker) copyLike(base string, args []string, st *state) verdict {
	ops, opts := operands(args, "-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group")
	dest := append([]string(nil), opts["-t"]...)
	dest = append(dest, opts["--target-directory"]...)
	if len(dest) == 0 && len(ops) > 0 {
		dest = []string{ops[len(ops)-1]}
		ops = ops[:len(ops)-1]
	}
	if base == "ln" && has(opts, "-s", "--symbolic") && len(ops) == 1 && len(dest) == 1 {
		w.recordLink(ops[0], dest[0], st)
	}
	if base == "ln" {
		return w.targets(dest, st, "write", false)
	}
	return w.targets(dest, st, "write", true)
}

// recordLink remembers a symlink the script creates, so that later
// commands writing through it are judged by where it points.
func (w *walker) recordLink(target, link string, st *state) {
	plLink, linkAbs := w.locate(link, st, false)
	if plLink == placeUnknown {
		return
	}
	t := target
	if !path.IsAbs(t) {
		t = path.Join(path.Dir(linkAbs), t)
	}
	w.links[linkAbs] = path.Clean(t)
}

func (w *walker) changeMode(base string, args []string, st *state) verdict {
	ops, opts := operands(args, "--reference", "-m", "-x")
	if len(ops) == 0 {
		return ask("not-read-only", base+" changes file attributes")
	}
	spec := ops[0]
	if !has(opts, "--reference") {
		ops = ops[1:]
	}
	if base == "chmod" && setuid(spec) {
		return deny("privilege", "setting the setuid or setgid bit lets a program run with another user's privileges")
	}
	return w.targets(ops, st, "change", true)
}

// setuid reports whether a chmod mode sets the setuid or setgid bit.
func setuid(mode string) bool {
	if strings.Trim(mode, "01234567") == "" && len(mode) >= 4 {
		return strings.ContainsAny(mode[len(mode)-4:len(mode)-3], "234567")
	}
	for _, clause := range strings.Split(mode, ",") {
		if _, perms, ok := strings.Cut(strings.TrimLeft(clause, "ugoa"), "+"); ok && strings.Contains(perms, "s") {
			return true
		}
		if _, perms, ok := strings.Cut(clause, "="); ok && strings.Contains(perms, "s") {
			return true
		}
	}
	return false
}

func (w *walker) tar(args []string, st *state) verdict {
	extract, create := false, false
	var file, dir []string
	for i, a := range args {
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch {
		case a == "-C" || a == "--directory":
			dir = append(dir, next)
		case strings.HasPrefix(a, "--directory="):
			dir = append(dir, strings.TrimPrefix(a, "--directory="))
		case a == "-f" || a == "--file":
			file = append(file, next)
		case strings.HasPrefix(a, "--file="):
			file = append(file, strings.TrimPrefix(a, "--file="))
		case a == "--extract" || a == "--get":
			extract = true
		case a == "--create" || a == "--append" || a == "--update":
			create = true
		case i == 0 && !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
			extract = extract || strings.Contains(a, "x")
			create = create || strings.ContainsAny(a, "cru")
			if j := strings.IndexByte(a, 'f'); j >= 0 && j == len(a)-1 {
				file = append(file, next)
			}
		}
	}
	switch {
	case extract:
		if len(dir) == 0 {
			dir = []string{"."}
		}
		for i, d := range dir {
			dir[i] = strings.TrimSuffix(d, "/") + "/extracted"
		}
		return w.targets(dir, st, "extract into", true)
	case create:
		return w.targets(file, st, "write", true)
	}
	return allow("read-only")
}

func reachCmd(args []string) verdict {
	for i, a := range args {
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch {
		case a == "--sandbox=off" || a == "--sandbox" && next == "off", a == "--allow-network", a == "--allow-network=true",
			a == "__sandbox":
			return deny("sandbox-off", "it would run reach with its sandbox or network isolation turned off")
		}
	}
	return ask("not-read-only", "it runs reach")
}
