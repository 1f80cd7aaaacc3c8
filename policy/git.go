package policy

import (
	"strings"
)

// gitReadOnly are git subcommands that only read, with a check on their
// arguments ("" when read-only).
var gitReadOnly = map[string]func(args []string) string{
	"status": none, "log": noOutput, "diff": noOutput, "show": noOutput, "blame": none, "rev-parse": none,
	"ls-files": none, "ls-tree": none, "cat-file": none, "describe": none, "shortlog": none, "grep": gitGrep,
	"merge-base": none, "rev-list": none, "name-rev": none, "count-objects": none, "for-each-ref": none,
	"show-ref": none, "check-ignore": none, "check-attr": none, "var": none, "version": none, "whatchanged": noOutput,
	"branch":   listOnly("-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "-l", "--list", "--show-current", "--contains", "--no-contains", "--merged", "--no-merged", "--format", "--sort", "--color", "--no-color", "--points-at", "--column", "--no-column"),
	"tag":      listOnly("-l", "--list", "-n", "--contains", "--no-contains", "--merged", "--no-merged", "--sort", "--format", "--points-at", "--column", "--no-column"),
	"remote":   subOnly("", "-v", "--verbose", "get-url", "show"),
	"stash":    subOnly("list", "show"),
	"worktree": subOnly("list"),
	"reflog":   subOnly("", "show"),
	"config":   gitConfigRead,
}

func none([]string) string { return "" }

func noOutput(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "--output") || a == "--ext-diff" || strings.HasPrefix(a, "--textconv") {
			return "git " + a + " writes a file or runs a program"
		}
	}
	return ""
}

func gitGrep(args []string) string {
	for _, a := range args {
		if a == "-O" || strings.HasPrefix(a, "--open-files-in-pager") {
			return "git grep -O runs a pager"
		}
	}
	return ""
}

// listOnly allows the listing form: only the given options, no names.
func listOnly(opts ...string) func([]string) string {
	ok := set(opts...)
	return func(args []string) string {
		for i, a := range args {
			k, _, _ := strings.Cut(a, "=")
			if !ok[k] {
				if i > 0 && (args[i-1] == "--contains" || args[i-1] == "--merged" || args[i-1] == "--no-merged" || args[i-1] == "--points-at" || args[i-1] == "--no-contains") {
					continue
				}
				if args[0] == "-l" || args[0] == "--list" {
					continue // patterns after --list
				}
				return "it creates, renames or deletes refs"
			}
		}
		return ""
	}
}

// subOnly allows the given first arguments ("" for none).
func subOnly(subs ...string) func([]string) string {
	ok := set(subs...)
	return func(args []string) string {
		first := ""
		if len(args) > 0 {
			first = args[0]
		}
		if ok[first] {
			return ""
		}
		return "it changes the repository"
	}
}

func gitConfigRead(args []string) string {
	for _, a := range args {
		switch a {
		case "--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin", "--show-scope", "get", "list":
			return ""
		}
	}
	return "it changes git's configuration"
}

// gitExecKeys are configuration keys whose values git runs as commands.
var gitExecKeys = []string{"core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.hookspath", "core.askpass",
	"diff.external", "sequence.editor", "credential.helper", "gpg.program", "uploadpack.packobjectshook", "alias.", "filter.",
	"merge.", "diff.", "pager.", "protocol.ext", "remote.", "include.path", "includeif."}

func execKey(key string) bool {
	key = strings.ToLower(key)
	for _, k := range gitExecKeys {
		if strings.HasSuffix(k, ".") {
			if strings.HasPrefix(key, k) && (k != "diff." && k != "merge." && k != "remote." || strings.HasSuffix(key, ".command") || strings.HasSuffix(key, ".textconv") || strings.HasSuffix(key, ".driver") || strings.HasSuffix(key, ".receivepack") || strings.HasSuffix(key, ".uploadpack") || strings.HasSuffix(key, ".vcs")) {
				return true
			}
			continue
		}
		if key == k {
			return true
		}
	}
	return false
}

var protectedBranches = set("main", "master", "trunk", "develop", "production", "prod", "release", "stable")

func protectedRef(ref string) bool {
	ref = strings.TrimPrefix(ref, "+")
	if i := strings.LastIndexByte(ref, ':'); i >= 0 {
		ref = ref[i+1:]
	}
	ref = strings.TrimPrefix(strings.TrimPrefix(ref, "refs/heads/"), "heads/")
	return protectedBranches[ref] || strings.HasPrefix(ref, "release/") || strings.HasPrefix(ref, "release-")
}

// git judges a git command line: global options, then the subcommand.
func (w *walker) git(args []string, st *state) verdict {
	gitSt := st
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		next := ""
		if len(args) > 1 {
			next = args[1]
		}
		switch {
		case a == "-C":
			gitSt = st.clone()
			w.chdir([]string{next}, gitSt)
			args = args[min(2, len(args)):]
		case a == "-c":
			if k, _, _ := strings.Cut(next, "="); execKey(k) {
				return deny("git-exec-config", "git -c "+k+" makes git run a command")
			}
			args = args[min(2, len(args)):]
		case a == "--git-dir" || a == "--work-tree" || strings.HasPrefix(a, "--git-dir=") || strings.HasPrefix(a, "--work-tree=") || a == "--exec-path" || strings.HasPrefix(a, "--exec-path="):
			return ask("git-elsewhere", "git with "+a+" works on another repository or program path")
		case a == "--no-pager" || a == "-P" || a == "--no-optional-locks" || a == "--literal-pathspecs" || a == "--no-replace-objects" || a == "--paginate" || a == "-p":
			args = args[1:]
		default:
			return ask("not-read-only", "git "+a+" is not understood by the policy")
		}
	}
	if len(args) == 0 {
		return allow("read-only")
	}
	sub, rest := args[0], args[1:]
	for _, a := range rest {
		if strings.Contains(a, "refs/reach") {
			if check, ok := gitReadOnly[sub]; !ok || check(rest) != "" {
				return deny("checkpoints", "it would change reach's checkpoints under refs/reach; use reach undo")
			}
		}
	}
	if gitSt.cwd != w.p.root && gitSt.cwd != "" {
		if pl, _ := w.locate(gitSt.cwd, gitSt, true); pl == placeOutside || pl == placeRoot && gitSt.cwd != w.p.root {
			if check, ok := gitReadOnly[sub]; ok && check(rest) == "" {
				return allow("read-only")
			}
			return deny("outside-root", "it would change the git repository at "+gitSt.cwd+", outside the project root")
		}
	}
	switch sub {
	case "push":
		return gitPush(rest)
	case "clean":
		for _, a := range rest {
			if a == "-x" || a == "-X" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "xX") {
				return deny("git-clean-ignored", "git clean -x deletes ignored files (.env, build outputs), which checkpoints do not keep; delete the paths you mean by name")
			}
		}
		return ask("not-read-only", "git clean deletes untracked files (a checkpoint is taken first)")
	case "config":
		for _, a := range rest {
			if execKey(a) {
				if gitConfigRead(rest) == "" {
					return allow("read-only")
				}
				return deny("git-exec-config", "setting "+a+" makes git run a command")
			}
		}
	case "update-ref", "filter-branch", "filter-repo":
		return ask("not-read-only", "git "+sub+" rewrites history or refs")
	}
	if check, ok := gitReadOnly[sub]; ok {
		if reason := check(rest); reason != "" {
			return ask("not-read-only", reason)
		}
		return allow("read-only")
	}
	return ask("not-read-only", "git "+sub+" changes the repository or runs programs")
}

// gitPush denies forced pushes and deletions aimed at protected branches.
func gitPush(args []string) verdict {
	force, del := false, false
	ops, opts := operands(args, "-o", "--push-option", "--repo", "--receive-pack", "--exec")
	for k := range opts {
		switch {
		case k == "-f" || k == "--force" || strings.HasPrefix(k, "--force-with-lease") || k == "--force-if-includes" || k == "--mirror":
			force = true
		case k == "-d" || k == "--delete" || k == "--prune":
			del = true
		}
	}
	refs := ops
	if len(refs) > 0 {
		refs = refs[1:] // the remote
	}
	for _, r := range refs {
		if strings.HasPrefix(r, "+") && protectedRef(r) {
			return deny("force-push", "it force-pushes to the protected branch "+r)
		}
		if strings.HasPrefix(r, ":") && protectedRef(r) {
			return deny("force-push", "it deletes the protected branch "+r[1:])
		}
		if (force || del) && protectedRef(r) {
			return deny("force-push", "it force-pushes to or deletes the protected branch "+r)
		}
	}
	if force && len(refs) == 0 {
		return deny("force-push", "a forced push without a branch may overwrite a protected branch (main, master…); name the branch")
	}
	return ask("network", "git push publishes commits")
}
