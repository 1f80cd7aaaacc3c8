package search

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp/syntax"
	"runtime"
	"strings"
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
	for _, tc := range []struct {
		name, pattern string
		cs            bool
	}{
		{"literal", "ErrUnexpectedEOF", true},
		{"fold-literal", "errunexpectedeof", false},
		{"regex-with-literal", `func \w+Marshal\w*\(`, true},
		{"regex-without-literal", `[A-Z][a-z]+[0-9]{3}[a-z]`, true},
	} {
		q := query{Pattern: tc.pattern, CaseSensitive: tc.cs, Exclude: DefaultExcludeDirs()}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := nativeSearch(context.Background(), root, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchFile measures one file's search with the file read, as the
// native search does it: a typical small source file (one read and the read
// that sees the end) and a 16 MiB one (64 chunks carried across).
func BenchmarkSearchFile(b *testing.B) {
	dir := b.TempDir()
	line := "func (s *Server) serve(ctx context.Context, req *Request) error { return nil }\n"
	for _, tc := range []struct {
		name string
		size int
	}{
		{"small-2KiB", 2 << 10},
		{"large-16MiB", 16 << 20},
	} {
		text := strings.Repeat(line, tc.size/len(line)) + "func NeedleHandler(w Writer) {}\n"
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		for _, mc := range []struct {
			name, pattern string
			fixed, cs     bool
		}{
			{"literal", "NeedleHandler", true, true},
			{"fold-literal", "needlehandler", true, false},
		} {
			m, err := compileMatcher(mc.pattern, mc.fixed, mc.cs)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(tc.name+"/"+mc.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				var bufs fileBuffers
				for b.Loop() {
					if got := searchFile(p, m, 0, 0, &bufs); len(got) != 1 {
						b.Fatalf("%d lines, want 1", len(got))
					}
				}
			})
		}
	}
}
