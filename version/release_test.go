package version

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaser is the part of .goreleaser.yaml this test checks. The full
// validation is `goreleaser check` (see README, Releases); installing
// goreleaser takes far longer than CI should spend, so CI runs this.
type goreleaser struct {
	Version int `yaml:"version"`
	Builds  []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
		Files []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
	} `yaml:"checksum"`
	Release struct {
		GitHub struct {
			Owner string `yaml:"owner"`
			Name  string `yaml:"name"`
		} `yaml:"github"`
	} `yaml:"release"`
}

// stringVars returns the package-level string variables of this package
// that -X can set: declared with type string or a string literal.
func stringVars(t *testing.T) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "version.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				isString := false
				if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "string" {
					isString = true
				}
				if vs.Type == nil && i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						isString = true
					}
				}
				out[name.Name] = isString
			}
		}
	}
	return out
}

func TestGoreleaserConfig(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg goreleaser
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&cfg); err != nil {
		t.Fatalf("parse .goreleaser.yaml: %v", err)
	}
	if cfg.Version != 2 || len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf("want version 2 with one build and one archive, got %+v", cfg)
	}
	b := cfg.Builds[0]
	t.Run("build", func(t *testing.T) {
		if b.Binary != "reach" || !slices.Contains(b.Env, "CGO_ENABLED=0") {
			t.Errorf("binary %q, env %q", b.Binary, b.Env)
		}
		if _, err := os.Stat(filepath.Join("..", b.Main, "main.go")); err != nil {
			t.Errorf("main %q: %v", b.Main, err)
		}
		for _, want := range []string{"linux", "darwin", "windows"} {
			if !slices.Contains(b.Goos, want) {
				t.Errorf("goos %q lacks %s", b.Goos, want)
			}
		}
	})
	t.Run("ldflags set version, commit and date", func(t *testing.T) {
		vars := stringVars(t)
		x := regexp.MustCompile(`-X (\S+)\.(\w+)=(\S+)`)
		set := map[string]string{}
		for _, flag := range b.Ldflags {
			for _, m := range x.FindAllStringSubmatch(flag, -1) {
				if m[1] != "github.com/reach-agent/reach/version" {
					t.Errorf("-X targets package %s, want github.com/reach-agent/reach/version", m[1])
				}
				if !vars[m[2]] {
					t.Errorf("-X sets %s, which is not a string variable of package version", m[2])
				}
				set[m[2]] = m[3]
			}
		}
		want := map[string]string{"Version": "{{.Version}}", "Commit": "{{.Commit}}", "Date": "{{.Date}}"}
		for k, v := range want {
			if set[k] != v {
				t.Errorf("-X %s=%q, want %q", k, set[k], v)
			}
		}
	})
	t.Run("archives carry README and licence", func(t *testing.T) {
		a := cfg.Archives[0]
		for _, f := range []string{"README.md", "LICENSE"} {
			if !slices.Contains(a.Files, f) {
				t.Errorf("archive files %q lack %s", a.Files, f)
			}
			if _, err := os.Stat(filepath.Join("..", f)); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
		if !slices.Equal(a.Formats, []string{"tar.gz"}) || len(a.FormatOverrides) != 1 ||
			a.FormatOverrides[0].Goos != "windows" || !slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"}) {
			t.Errorf("formats %q, overrides %+v", a.Formats, a.FormatOverrides)
		}
	})
	t.Run("checksums and release target", func(t *testing.T) {
		if cfg.Checksum.NameTemplate == "" {
			t.Error("no checksum file")
		}
		if gh := cfg.Release.GitHub; gh.Owner+"/"+gh.Name != "reach-agent/reach" {
			t.Errorf("release to %s/%s, want reach-agent/reach (the module path)", gh.Owner, gh.Name)
		}
	})
}
