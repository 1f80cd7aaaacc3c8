package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/reach-agent/reach/approval"
)

// rule is one user pattern from [policy]: a command prefix whose words
// may hold glob patterns, with example commands it must match.
type rule struct {
	action   approval.Action
	prefix   string
	words    []string
	examples []string
}

func (r rule) name() string { return "user-" + r.action.String() + ":" + r.prefix }

// parseRule reads "PREFIX [# EXAMPLE; EXAMPLE…]".
func parseRule(action approval.Action, entry string) (rule, error) {
	pattern, examples, _ := strings.Cut(entry, "#")
	r := rule{action: action, prefix: strings.Join(strings.Fields(pattern), " "), words: strings.Fields(pattern)}
	if len(r.words) == 0 {
		return rule{}, fmt.Errorf("policy.%s: rule %q has no command; write a command prefix such as \"go test\"", action, entry)
	}
	for _, word := range r.words {
		if _, err := path.Match(word, ""); err != nil {
			return rule{}, fmt.Errorf("policy.%s: rule %q: bad pattern %q: %w", action, entry, word, err)
		}
	}
	for _, ex := range strings.Split(examples, ";") {
		if ex = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ex), "e.g.")); ex != "" {
			r.examples = append(r.examples, ex)
		}
	}
	return r, nil
}

// matches reports whether argv starts with the rule's words; the program
// also matches by its base name (/usr/bin/npm is npm).
func (r rule) matches(argv []string) bool {
	if len(argv) < len(r.words) {
		return false
	}
	for i, word := range r.words {
		arg := argv[i]
		if isDyn(arg) {
			return false
		}
		ok, _ := path.Match(word, arg)
		if !ok && i == 0 {
			ok, _ = path.Match(word, path.Base(arg))
		}
		if !ok {
			return false
		}
	}
	return true
}

func (p *Policy) matchRule(action approval.Action, argv []string) (rule, bool) {
	for _, r := range p.rules {
		if r.action == action && r.matches(argv) {
			return r, true
		}
	}
	return rule{}, false
}

// checkExamples makes sure each example of r contains a command r
// matches, and that an allow rule's examples are not hard-denied, so a
// typo in a rule is an error rather than a hole.
func (p *Policy) checkExamples(r rule) error {
	for _, ex := range r.examples {
		w := newWalker(p)
		w.script(ex, w.initial())
		matched := false
		for _, argv := range w.argvs {
			matched = matched || r.matches(argv)
		}
		if !matched {
			return fmt.Errorf("policy.%s: rule %q does not match its example %q; fix the rule or the example", r.action, r.prefix, ex)
		}
		if r.action == approval.Allow {
			if v := p.Decide(ex); v.Action == approval.Deny {
				return fmt.Errorf("policy.allow: rule %q: its example %q is denied by the built-in policy (%s: %s); an allow rule cannot permit it", r.prefix, ex, v.Rule, v.Reason)
			}
		}
	}
	return nil
}
