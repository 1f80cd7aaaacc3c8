package search

import (
	"path"
	"sort"
	"strings"
)

// fileTypes maps a canonical file type to the base-name globs it covers.
// Both backends use this table, so a file_type selects the same files
// whether rg or the native search runs.
var fileTypes = map[string][]string{
	"c":          {"*.c", "*.h"},
	"cpp":        {"*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h", "*.inl"},
	"csharp":     {"*.cs"},
	"css":        {"*.css", "*.scss", "*.sass", "*.less"},
	"dart":       {"*.dart"},
	"docker":     {"Dockerfile", "*.dockerfile", "Dockerfile.*"},
	"elixir":     {"*.ex", "*.exs"},
	"go":         {"*.go"},
	"haskell":    {"*.hs", "*.lhs"},
	"html":       {"*.html", "*.htm", "*.xhtml"},
	"java":       {"*.java"},
	"javascript": {"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"},
	"json":       {"*.json", "*.jsonc", "*.json5"},
	"kotlin":     {"*.kt", "*.kts"},
	"lua":        {"*.lua"},
	"make":       {"Makefile", "makefile", "GNUmakefile", "*.mk", "*.mak"},
	"markdown":   {"*.md", "*.markdown", "*.mdx"},
	"perl":       {"*.pl", "*.pm", "*.t"},
	"php":        {"*.php"},
	"proto":      {"*.proto"},
	"python":     {"*.py", "*.pyi", "*.pyw"},
	"r":          {"*.R", "*.r", "*.Rmd"},
	"ruby":       {"*.rb", "*.rake", "*.gemspec", "Gemfile", "Rakefile"},
	"rust":       {"*.rs"},
	"scala":      {"*.scala", "*.sbt"},
	"scss":       {"*.scss"},
	"sh":         {"*.sh", "*.bash", "*.zsh", "*.ksh"},
	"sql":        {"*.sql", "*.psql"},
	"swift":      {"*.swift"},
	"terraform":  {"*.tf", "*.tfvars"},
	"toml":       {"*.toml"},
	"typescript": {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"txt":        {"*.txt"},
	"xml":        {"*.xml", "*.xsd", "*.xsl", "*.xslt"},
	"yaml":       {"*.yaml", "*.yml"},
	"zig":        {"*.zig"},
}

// typeAliases are the other names models use for a type.
var typeAliases = map[string]string{
	"py": "python", "rs": "rust", "ts": "typescript", "tsx": "typescript", "js": "javascript",
	"jsx": "javascript", "yml": "yaml", "md": "markdown", "golang": "go", "rb": "ruby",
	"kt": "kotlin", "cs": "csharp", "c#": "csharp", "c++": "cpp", "cxx": "cpp", "hpp": "cpp",
	"h": "c", "bash": "sh", "shell": "sh", "zsh": "sh", "pl": "perl", "htm": "html",
	"dockerfile": "docker", "makefile": "make", "tf": "terraform", "ex": "elixir", "hs": "haskell",
	"text": "txt", "protobuf": "proto", "postgres": "sql", "psql": "sql",
}

// resolveType returns the canonical name and globs of a file_type, or an
// error message naming the known types.
func resolveType(name string) (string, []string, string) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, ".")
	if a, ok := typeAliases[n]; ok {
		n = a
	}
	if globs, ok := fileTypes[n]; ok {
		return n, globs, ""
	}
	known := make([]string, 0, len(fileTypes))
	for k := range fileTypes {
		known = append(known, k)
	}
	sort.Strings(known)
	return "", nil, "unknown file_type " + quote(name) + "; use one of: " + strings.Join(known, ", ") +
		" (aliases such as py, rs, ts, js, yml, md also work), or leave file_type empty and narrow with include_paths"
}

func matchesAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

func quote(s string) string { return "\"" + s + "\"" }
