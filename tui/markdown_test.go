package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// sgrBefore returns the last SGR sequence before the first occurrence of
// word in out, or "" when word is not there.
func sgrBefore(out, word string) string {
	i := strings.Index(out, word)
	if i < 0 {
		return ""
	}
	all := regexp.MustCompile("\x1b\\[[0-9;]*m").FindAllString(out[:i], -1)
	if len(all) == 0 {
		return "none"
	}
	return all[len(all)-1]
}

// TestCodeBlockHighlighting checks that code blocks are coloured by their
// language. chroma is linked from third_party/chroma, whose lexers and
// styles load on first use instead of at start-up: this is the test that
// the lazy load still finds the Go-defined lexers (go), the embedded XML
// ones (python, rust) and renders plain text for an unknown tag.
func TestCodeBlockHighlighting(t *testing.T) {
	cases := []struct {
		lang, code, keyword, ident string
		highlighted                bool
	}{
		{"go", "func handler() {}", "func", "handler", true},
		{"python", "def handler(): pass", "def", "handler", true},
		{"rust", "fn handler() {}", "fn", "handler", true},
		{"nosuchlanguage", "alpha beta gamma", "alpha", "gamma", false},
	}
	md := newMarkdown(true, false)
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			out := strings.Join(md.render("```"+c.lang+"\n"+c.code+"\n```\n", 80), "\n")
			if !strings.Contains(ansi.Strip(out), c.code) {
				t.Fatalf("code missing from the rendering:\n%q", out)
			}
			kw, id := sgrBefore(out, c.keyword), sgrBefore(out, c.ident)
			if got := kw != id; got != c.highlighted {
				t.Errorf("keyword %q styled %q, identifier %q styled %q: highlighted = %v, want %v",
					c.keyword, kw, c.ident, id, got, c.highlighted)
			}
		})
	}
}
