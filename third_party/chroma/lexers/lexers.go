package lexers

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers.
//
// reach fork: the embedded XML lexers are parsed on first use (any lookup
// function of this package) instead of at package initialisation, where
// they cost every program that links chroma about 15 ms of start-up. Code
// that reads GlobalLexerRegistry directly must call Names, Get or another
// lookup first.
var GlobalLexerRegistry = chroma.NewLexerRegistry()

// loaded is set once the embedded lexers are in GlobalLexerRegistry;
// registered holds, until then, the lexers registered by Go code, in order.
var (
	loadOnce   sync.Once
	loaded     bool
	registered []chroma.Lexer
	afterLoad  []func() // adjustments of embedded lexers, run by load
)

// load registers the embedded XML lexers and then, again and in their
// original order, the lexers registered by Go code, so that the registry
// ends up as upstream's eagerly built one.
func load() {
	loadOnce.Do(func() {
		paths, err := fs.Glob(embedded, "embedded/*.xml")
		if err != nil {
			panic(err)
		}
		*GlobalLexerRegistry = *chroma.NewLexerRegistry()
		for _, path := range paths {
			GlobalLexerRegistry.Register(chroma.MustNewXMLLexer(embedded, path))
		}
		for _, l := range registered {
			GlobalLexerRegistry.Register(l)
		}
		registered = nil
		loaded = true
		for _, f := range afterLoad {
			f()
		}
	})
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	load()
	return GlobalLexerRegistry.Names(withAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	load()
	return GlobalLexerRegistry.Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	load()
	return GlobalLexerRegistry.MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	load()
	return GlobalLexerRegistry.Match(filename)
}

// Register a Lexer with the global registry.
func Register(lexer chroma.Lexer) chroma.Lexer {
	if !loaded {
		registered = append(registered, lexer)
	}
	return GlobalLexerRegistry.Register(lexer)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	load()
	return GlobalLexerRegistry.Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
