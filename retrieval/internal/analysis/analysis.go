// Package analysis turns English text and identifiers into index terms,
// the same way for retrieval's index and for the generators of its data
// files: split identifiers and phrases into words, drop stop words, stem.
package analysis

import (
	"strings"
	"unicode"
)

// Split breaks an identifier or a phrase into lower-case words:
// snake_case, kebab-case, camelCase, PascalCase, acronyms (HTTPServer →
// http server) and letter/digit boundaries all split.
func Split(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
			if len(cur) > 0 {
				prev := cur[len(cur)-1]
				switch {
				case unicode.IsDigit(prev):
					flush()
				case unicode.IsUpper(r) && unicode.IsLower(prev):
					flush() // camelCase
				case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
					flush() // HTTPServer: the S starts a word
				}
			}
			cur = append(cur, r)
		case unicode.IsDigit(r):
			if len(cur) > 0 && !unicode.IsDigit(cur[len(cur)-1]) {
				flush()
			}
			cur = append(cur, r)
		case r == '\'' || r == '’':
			// don't → dont, user's → users
		default:
			flush()
		}
	}
	flush()
	return words
}

// IsDigits reports whether s is a non-empty run of digits.
func IsDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// StopWords returns a fresh set of English function words and the filler
// of requests to an assistant ("can you please help me…"): they say
// nothing about which tool fits.
func StopWords() map[string]bool {
	stop := map[string]bool{}
	for _, w := range strings.Fields(stopList) {
		stop[w] = true
	}
	return stop
}

// Terms returns the stemmed terms of text, in order, without stop words
// and one-letter words.
func Terms(text string, stop map[string]bool) []string {
	words := Split(text)
	out := words[:0]
	for _, w := range words {
		if len(w) < 2 && !IsDigits(w) {
			continue
		}
		if stop[w] {
			continue
		}
		out = append(out, Stem(w))
	}
	return out
}

const stopList = `a about above after again against all am an and any are as at be because been
	before being below between both but by can could did do does doing down during each few for from further had has
	have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself
	no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that
	the their theirs them themselves then there these they this those through to too under until up very was we were
	what when where which while who whom why will with would you your yours yourself yourselves also may might must
	shall let lets please thanks thank hi hello hey want wants wanted need needs like would could kindly help helps
	assist assistance provide give tell show get got use using used able something anything everything someone
	anyone one ones way ways sure certainly really just know im ive id youre dont doesnt isnt cant wont whats
	tool tools plugin plugins app apps chatbot`
