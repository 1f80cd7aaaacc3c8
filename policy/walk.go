package policy

import (
	"fmt"
	"reflect"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/reach-agent/reach/approval"
)

// maxDepth bounds nested `bash -c`, eval and function bodies.
const maxDepth = 8

// walker judges one command line. It visits every node of the syntax tree
// that can run a program; whatever it does not understand is asked.
type walker struct {
	p       *Policy
	base    expand.Environ
	seen    []Seen
	wrote   bool // something writes a file
	depth   int
	visited map[*syntax.CallExpr]bool
	files   []*syntax.File
	funcs   map[string]bool
	links   map[string]string // symlinks the script creates: link → target
	fetched map[string]bool   // files a downloader wrote
	names   []string          // programs judged so far, in order ("download", "decode" for those roles)
	argvs   [][]string        // every argument list judged, for checking rule examples
}

func newWalker(p *Policy) *walker {
	return &walker{
		p:       p,
		base:    expand.ListEnviron(p.env...),
		visited: map[*syntax.CallExpr]bool{},
		funcs:   map[string]bool{},
		links:   map[string]string{},
		fetched: map[string]bool{},
	}
}

func (w *walker) initial() *state {
	return &state{cwd: w.p.root, vars: map[string]string{}}
}

// io describes where a simple command's standard input comes from.
type stdin struct {
	piped    bool     // from an earlier pipeline stage
	upstream []string // what runs upstream
	script   *string  // a here-document or here-string given to it, when static
	dynamic  bool     // a here-document or here-string only known at run time
}

func (w *walker) add(s Seen) {
	for _, old := range w.seen {
		if old == s {
			return
		}
	}
	w.seen = append(w.seen, s)
}

func (w *walker) deny(cmd, rule, reason string) {
	w.add(Seen{Command: cmd, Action: approval.Deny, Rule: rule, Reason: reason})
}

// script parses src and walks it with st.
func (w *walker) script(src string, st *state) {
	if w.depth >= maxDepth {
		w.deny(shorten(src), "too-deep", "commands nested more than 8 levels deep (bash -c, eval) are not run")
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		w.add(Seen{Command: shorten(src), Action: approval.Ask, Rule: "parse-error",
			Reason: fmt.Sprintf("the command could not be parsed (%v), so it cannot be checked", err)})
		return
	}
	w.files = append(w.files, f)
	w.depth++
	w.stmts(f.Stmts, st)
	w.depth--
}

// sweep judges any simple command the structured walk did not reach, with
// no knowledge of its context, so that nothing runs unjudged.
func (w *walker) sweep() {
	for _, f := range w.files {
		syntax.Walk(f, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && !w.visited[ce] {
				w.call(ce, nil, &state{vars: map[string]string{}}, stdin{})
			}
			return true
		})
	}
}

func (w *walker) stmts(list []*syntax.Stmt, st *state) {
	for _, s := range list {
		w.stmt(s, st, stdin{})
	}
}

func (w *walker) stmt(s *syntax.Stmt, st *state, in stdin) {
	if s == nil {
		return
	}
	var writes []*syntax.Redirect
	for _, r := range s.Redirs {
		w.nested(r.Word, st)
		w.nested(r.Hdoc, st)
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.AppClob, syntax.RdrInOut:
			writes = append(writes, r)
		case syntax.DplOut:
			if t := w.literal(st, r.Word); t != "-" && strings.Trim(t, "0123456789") != "" {
				writes = append(writes, r)
			}
		case syntax.Hdoc, syntax.DashHdoc:
			if body, ok := w.document(st, r.Hdoc); ok {
				in.script = &body
			} else {
				in.dynamic = true
			}
		case syntax.WordHdoc:
			if body := w.literal(st, r.Word); !isDyn(body) {
				in.script = &body
			} else {
				in.dynamic = true
			}
		case syntax.RdrIn:
			in.script = nil
		}
	}
	userAllowed := w.command(s.Cmd, st, in, s.Redirs)
	for _, r := range writes {
		w.redirect(r, st, userAllowed)
	}
}

// redirect judges a redirection that writes to a file.
func (w *walker) redirect(r *syntax.Redirect, st *state, userAllowed bool) {
	target := w.literal(st, r.Word)
	shown := r.Op.String() + " " + printable(target)
	pl, abs := w.locate(target, st, true)
	if pl == placeSink {
		w.add(Seen{Command: shown, Action: approval.Allow, Rule: "redirect-sink"})
		return
	}
	w.wrote = true
	if v, bad := w.writeVerdict(pl, abs, target, "write to"); bad {
		w.add(Seen{Command: shown, Action: v.action, Rule: v.rule, Reason: v.reason})
		return
	}
	if userAllowed {
		w.add(Seen{Command: shown, Action: approval.Allow, Rule: "redirect-inside"})
		return
	}
	w.add(Seen{Command: shown, Action: approval.Ask, Rule: "writes-file", Reason: "it writes " + printable(target)})
}

// command walks one command node and reports whether a user allow rule
// let its simple command run.
func (w *walker) command(c syntax.Command, st *state, in stdin, redirs []*syntax.Redirect) bool {
	switch c := c.(type) {
	case nil:
		return false
	case *syntax.CallExpr:
		return w.call(c, redirs, st, in)
	case *syntax.Block:
		w.stmts(c.Stmts, st)
	case *syntax.Subshell:
		w.stmts(c.Stmts, st.clone())
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			w.pipeline(c, st)
		default:
			w.stmt(c.X, st, stdin{})
			w.stmt(c.Y, st, stdin{})
		}
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, st)
			w.stmts(ic.Then, st)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, st)
		w.stmts(c.Do, st)
	case *syntax.ForClause:
		w.forClause(c, st)
	case *syntax.CaseClause:
		w.nested(c.Word, st)
		for _, item := range c.Items {
			for _, pat := range item.Patterns {
				w.nested(pat, st)
			}
			w.stmts(item.Stmts, st)
		}
	case *syntax.FuncDecl:
		w.funcDecl(c, st)
	case *syntax.ArithmCmd:
		w.nested(c, st)
		w.add(Seen{Command: "((…))", Action: approval.Allow, Rule: "arithmetic"})
	case *syntax.TestClause:
		w.nested(c, st)
		w.add(Seen{Command: "[[ … ]]", Action: approval.Allow, Rule: "test"})
	case *syntax.DeclClause:
		w.declClause(c, st)
	case *syntax.LetClause:
		w.nested(c, st)
		w.add(Seen{Command: "let …", Action: approval.Allow, Rule: "arithmetic"})
	case *syntax.TimeClause:
		w.stmt(c.Stmt, st, in)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, st.clone(), stdin{})
	default:
		w.nested(c, st)
		w.add(Seen{Command: fmt.Sprintf("%T", c), Action: approval.Ask, Rule: "unsupported-syntax",
			Reason: "this shell construct is not checked by the policy"})
	}
	return false
}

// pipeline walks the stages of a | b | c, each in a subshell, telling
// each what runs upstream of it.
func (w *walker) pipeline(c *syntax.BinaryCmd, st *state) {
	var stages []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(c.X)
	flatten(c.Y)
	var upstream []string
	for i, s := range stages {
		mark := len(w.names)
		w.stmt(s, st.clone(), stdin{piped: i > 0, upstream: upstream})
		upstream = append(upstream, w.names[mark:]...)
	}
}

func (w *walker) forClause(c *syntax.ForClause, st *state) {
	switch loop := c.Loop.(type) {
	case *syntax.WordIter:
		values := []string{dyn}
		if loop.InPos.IsValid() {
			for _, word := range loop.Items {
				w.nested(word, st)
			}
			values = w.fields(st, loop.Items...)
			if len(values) > 16 || len(values) == 0 {
				values = []string{dyn}
			}
		}
		for _, v := range values {
			st.vars[loop.Name.Value] = v
			w.stmts(c.Do, st)
		}
		st.vars[loop.Name.Value] = dyn
	default:
		w.nested(c.Loop, st)
		w.stmts(c.Do, st)
	}
}

func (w *walker) funcDecl(c *syntax.FuncDecl, st *state) {
	name := ""
	if c.Name != nil {
		name = c.Name.Value
		w.funcs[name] = true
	}
	if name != "" && forkBomb(name, c.Body) {
		w.deny(name+"() { … }", "fork-bomb", "a function that calls itself in the background or through a pipe is a fork bomb")
	}
	inner := st.clone()
	for k := range inner.vars {
		if k == "1" || k == "@" {
			inner.vars[k] = dyn
		}
	}
	w.stmt(c.Body, inner, stdin{})
}

// forkBomb reports whether body calls name from a pipeline or the background.
func forkBomb(name string, body *syntax.Stmt) bool {
	calls, spawns := false, false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 && n.Args[0].Lit() == name {
				calls = true
			}
		case *syntax.Stmt:
			spawns = spawns || n.Background
		case *syntax.BinaryCmd:
			spawns = spawns || n.Op == syntax.Pipe || n.Op == syntax.PipeAll
		}
		return true
	})
	return calls && spawns
}

func (w *walker) declClause(c *syntax.DeclClause, st *state) {
	for _, a := range c.Args {
		w.nested(a, st)
		if a.Name != nil && !a.Naked {
			w.assign(a, st)
		}
	}
	w.add(Seen{Command: c.Variant.Value + " …", Action: approval.Allow, Rule: "declare"})
}

func (w *walker) assign(a *syntax.Assign, st *state) {
	v := dyn
	if a.Value != nil && a.Array == nil && a.Index == nil {
		v = w.literal(st, a.Value)
		if a.Append {
			v = st.vars[a.Name.Value] + v
		}
	}
	if a.Value == nil && a.Array == nil {
		v = ""
	}
	st.vars[a.Name.Value] = v
	if taintVars[a.Name.Value] {
		st.tainted = a.Name.Value
	}
}

// nested walks the command and process substitutions inside node, each
// in a subshell of st.
func (w *walker) nested(node syntax.Node, st *state) {
	if node == nil || reflect.ValueOf(node).IsNil() {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(n.Stmts, st.clone())
			return false
		case *syntax.ProcSubst:
			w.stmts(n.Stmts, st.clone())
			return false
		}
		return true
	})
}

func shorten(s string) string {
	s = printable(s)
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// printable shows a value with run-time parts as $(…).
func printable(s string) string {
	return strings.ReplaceAll(s, dyn, "$(…)")
}
