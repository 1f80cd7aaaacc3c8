package search

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp/syntax"
	"runtime"
	"testing"
)

func BenchmarkRequiredLiterals(b *testing.B) {
	for _, p := range []string{`HandleRequest`, `func\s+\w+Handler\(`, `(?i)(error|warning|fatal)s?:`, `[A-Z][a-z]+[0-9]{2,}`} {
		b.Run(p, func(b *testing.B) {
			for b.Loop() {
				re, err := syntax.Parse(p, syntax.Perl)
				if err != nil {
					b.Fatal(err)
				}
				_ = requiredLiterals(re.Simplify())
			}
		})
	}
}

// BenchmarkMatchLines measures the per-buffer matcher on a 4 MiB Go-like
// text: the prefiltered paths against the every-line regexp.
func BenchmarkMatchLines(b *testing.B) {
	var buf bytes.Buffer
	for buf.Len() < 4<<20 {
		buf.WriteString("func (s *Server) serve(ctx context.Context, req *Request) error {\n\treturn nil\n}\n\n")
	}
	buf.WriteString("func NeedleHandler(w Writer) {}\n")
	data := buf.Bytes()
	for _, tc := range []struct {
		name, pattern string
		fixed, cs     bool
	}{
		{"literal", "NeedleHandler", true, true},
		{"regex-with-literal", `func\s+\w+Handler\(`, false, true},
		{"fold-literal", "needlehandler", true, false},
		{"regex-without-literal", `[A-Z][a-z]+[0-9]{2,}`, false, true},
	} {
		m, err := compileMatcher(tc.pattern, tc.fixed, tc.cs)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var scratch []byte
			for b.Loop() {
				_ = m.matchLines(data, &scratch)
			}
		})
	}
}

func BenchmarkNativeSearchGOROOT(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(root); err != nil {
		b.Skip("no GOROOT source")
	}
	for _, tc := range []struct{ name, pattern string }{
		{"literal", "ErrUnexpectedEOF"},
		{"regex-with-literal", `func \w+Marshal\w*\(`},
		{"regex-without-literal", `[A-Z][a-z]+[0-9]{3}[a-z]`},
	} {
		q := query{Pattern: tc.pattern, CaseSensitive: true, Exclude: DefaultExcludeDirs()}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := nativeSearch(context.Background(), root, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
