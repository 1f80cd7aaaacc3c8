package search

import (
	"bytes"
	"reflect"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

func TestRequiredLiterals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern string
		fold    bool
		want    []string
	}{
		{`HandleRequest`, false, []string{"HandleRequest"}},
		{`func\s+\w+Handler\(`, false, []string{"Handler("}},
		{`(foo|barbaz)+x`, false, []string{"foo", "barbaz"}},
		{`(?i)Error:`, false, []string{"error:"}},
		{`Error`, true, []string{"error"}},
		{`a?b*`, false, nil},                 // nothing required
		{`[A-Z][a-z]+[0-9]{2,}`, false, nil}, // classes only
		{`(x|.)yz`, false, []string{"yz"}},   // alternation without a literal in every branch is skipped
		{`(?i)café`, false, nil},             // non-ASCII under case folding: no prefilter
		{`(a|b|c|d|e|f|g|h|i)`, false, nil},  // too many alternatives
	}
	for _, tc := range cases {
		t.Run(tc.pattern, func(t *testing.T) {
			t.Parallel()
			flags := syntax.Perl
			if tc.fold {
				flags |= syntax.FoldCase
			}
			re, err := syntax.Parse(tc.pattern, flags)
			if err != nil {
				t.Fatal(err)
			}
			got := requiredLiterals(re.Simplify())
			if !reflect.DeepEqual(got.lits, tc.want) {
				t.Errorf("got %q (fold %v), want %q", got.lits, got.fold, tc.want)
			}
		})
	}
}

func TestRequiredBytes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern string
		want    string // the set's bytes in order; "" means no set
	}{
		{`[A-Z][a-z]+[0-9]{3}`, "0123456789"}, // the smallest required class
		{`(?i)[x-z]+\d`, "XYZxyz"},
		{`(?i)q.`, "Qq"},
		{`(a|[bc])\s`, "abc"},
		{`.*`, ""},
		{`a*b?`, ""},
		{`[^a]`, ""}, // too many bytes to be worth it
	}
	for _, tc := range cases {
		t.Run(tc.pattern, func(t *testing.T) {
			t.Parallel()
			re, err := syntax.Parse(tc.pattern, syntax.Perl)
			if err != nil {
				t.Fatal(err)
			}
			s := requiredBytes(re.Simplify())
			var got strings.Builder
			if s != nil {
				for b, ok := range s {
					if ok {
						got.WriteByte(byte(b))
					}
				}
			}
			if got.String() != tc.want {
				t.Errorf("got %q, want %q", got.String(), tc.want)
			}
		})
	}
}

// TestPrefilterAgreesWithEveryLine checks that each prefilter finds exactly
// the lines the plain per-line regexp finds.
func TestPrefilterAgreesWithEveryLine(t *testing.T) {
	t.Parallel()
	text := []byte(strings.Join([]string{
		"func ServeHTTP(w Writer) {", "\tHandler(x)", "ServeHandler(x)", "handler(y)", "HANDLER(z)", "Ab123c and Xy9999z",
		"no digits here", "café Straße KELVIN \u212a", "a \u212aind of \u017ftar", "CAFÉ \u212aIND", "tail without newline Handler(",
	}, "\n"))
	for _, tc := range []struct {
		pattern      string
		fixed, case_ bool
	}{
		{"Handler(", true, true},
		{"handler(", true, false},
		{`\w+Handler\(`, false, true},
		{`(?i)handler\(`, false, true},
		{`[A-Z][a-z]+[0-9]{3,}[a-z]`, false, true},
		{`k`, false, false},           // Kelvin sign folds to k: the ASCII prefilter must step aside
		{"kind", true, false},         // only the Kelvin sign makes two of the matches
		{"star", true, false},         // only the long s makes the match
		{`(?i)of st\w+`, false, true}, // the same through a regexp's required literal
		{"café", true, false},         // a non-ASCII literal: no prefilter
		{`^\s*[A-Z]`, false, true},
		{`z$`, false, true},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			t.Parallel()
			m, err := compileMatcher(tc.pattern, tc.fixed, tc.case_)
			if err != nil {
				t.Fatal(err)
			}
			var scratch []byte
			got := m.matchLines(text, &scratch)
			want := m.everyLine(text)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("prefiltered %v, every line %v", got, want)
			}
			if len(want) == 0 {
				t.Errorf("case matches nothing: it tests nothing")
			}
		})
	}
}

func TestLowerASCII(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"", ""},
		{"Hello, WORLD! @[`{ AZaz09", "hello, world! @[`{ azaz09"},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZ-abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz-abcdefghijklmnopqrstuvwxyz"},
		{"Caf\u00e9 CAF\u00c9 and more text", "caf\u00e9 caf\u00c9 and more text"},
		{"12345678\xff", "12345678\xff"},
		{"\xc0\xc1\xda\xdb\xe0\xe1\xfa\xfbSTUVWXYZ", "\xc0\xc1\xda\xdb\xe0\xe1\xfa\xfbstuvwxyz"}, // high bytes near A-Z + 0x80 stay
		{"Kelvin \u212a long \u017f", "kelvin \u212a long \u017f"},
	}
	var scratch []byte
	for _, tc := range cases {
		if got := lowerASCII([]byte(tc.in), &scratch); string(got) != tc.want {
			t.Errorf("lowerASCII(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestNonASCIIFolds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lits []string
		want []string
	}{
		{[]string{"handler"}, nil},
		{[]string{"kind"}, []string{"\u212a"}},
		{[]string{"class", "task"}, []string{"\u017f", "\u212a"}},
	} {
		t.Run(strings.Join(tc.lits, ","), func(t *testing.T) {
			t.Parallel()
			if got := nonASCIIFolds(tc.lits); !slices.Equal(got, tc.want) {
				t.Errorf("nonASCIIFolds(%q) = %q, want %q", tc.lits, got, tc.want)
			}
		})
	}
}

func TestIndexRare(t *testing.T) {
	t.Parallel()
	hay := []byte("context.Context ctx; contexts; xcontext")
	for _, lit := range []string{"context", "Context", "ctx;", "xcontext", "texts", "nope", "c", "tx"} {
		l := []byte(lit)
		if got, want := indexRare(hay, l, rarestByte(l)), bytes.Index(hay, l); got != want {
			t.Errorf("indexRare(%q) = %d, want %d", lit, got, want)
		}
	}
	if r := rarestByte([]byte("context")); r != 5 { // the x
		t.Errorf("rarest byte of context at %d, want 5", r)
	}
}
