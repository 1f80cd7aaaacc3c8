package search

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxAlternatives bounds how many literals a prefilter tries per position.
const maxAlternatives = 8

// requirement is a set of literals at least one of which occurs in every
// match. fold means the match is case-insensitive: the literals are then
// lower-case ASCII and must be looked for in a lower-cased haystack.
type requirement struct {
	lits []string
	fold bool
}

// better reports whether r makes a more selective prefilter than o:
// longer shortest literal first, then fewer alternatives.
func (r requirement) better(o requirement) bool {
	if len(o.lits) == 0 {
		return len(r.lits) > 0
	}
	if len(r.lits) == 0 {
		return false
	}
	rm, om := minLen(r.lits), minLen(o.lits)
	if rm != om {
		return rm > om
	}
	return len(r.lits) < len(o.lits)
}

func minLen(xs []string) int {
	m := -1
	for _, x := range xs {
		if m < 0 || len(x) < m {
			m = len(x)
		}
	}
	return m
}

// requiredLiterals extracts from a parsed regexp the literals a match
// cannot do without. The result is empty when there is no usable one.
func requiredLiterals(re *syntax.Regexp) requirement {
	r := required(re)
	if len(r.lits) == 0 || minLen(r.lits) == 0 {
		return requirement{}
	}
	if r.fold {
		for i, l := range r.lits {
			// Only ASCII literals can be found in an ASCII-lowered copy.
			if !isASCII(l) {
				return requirement{}
			}
			r.lits[i] = strings.ToLower(l)
		}
	}
	return r
}

func required(re *syntax.Regexp) requirement {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return requirement{}
		}
		return requirement{lits: []string{string(re.Rune)}, fold: re.Flags&syntax.FoldCase != 0}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best requirement
		for _, s := range re.Sub {
			if r := required(s); r.better(best) {
				best = r
			}
		}
		return best
	case syntax.OpAlternate:
		var all requirement
		for _, s := range re.Sub {
			r := required(s)
			if len(r.lits) == 0 {
				return requirement{}
			}
			all.lits = append(all.lits, r.lits...)
			all.fold = all.fold || r.fold
		}
		if len(all.lits) > maxAlternatives {
			return requirement{}
		}
		return all
	}
	return requirement{}
}

// nonASCIIFolds returns the non-ASCII runes that fold to a letter of the
// lower-case ASCII literals lits (the Kelvin sign to k, long s to s), each
// as a literal: a case-insensitive match holding one of them is not found
// by looking for lits in an ASCII-lowered copy, but is by looking for it.
func nonASCIIFolds(lits []string) []string {
	var out []string
	seen := map[rune]bool{}
	for _, l := range lits {
		for _, c := range l {
			for r := unicode.SimpleFold(c); r != c; r = unicode.SimpleFold(r) {
				if r >= utf8.RuneSelf && !seen[r] {
					seen[r] = true
					out = append(out, string(r))
				}
			}
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isPlainLiteral reports whether the whole regexp is one case-sensitive
// literal, so that finding it is the match and no regexp need run.
func isPlainLiteral(re *syntax.Regexp) bool {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase == 0
}

// byteSet is a set of bytes one of which every match contains: the
// prefilter for patterns without a required literal.
type byteSet [256]bool

func (s *byteSet) count() int {
	n := 0
	for _, b := range s {
		if b {
			n++
		}
	}
	return n
}

// maxSetBytes is the largest set worth scanning for: beyond it most lines
// would pass anyway.
const maxSetBytes = 64

// requiredBytes returns a set of bytes every match must contain, or nil.
func requiredBytes(re *syntax.Regexp) *byteSet {
	s := reqBytes(re)
	if s == nil || s.count() > maxSetBytes {
		return nil
	}
	return s
}

func reqBytes(re *syntax.Regexp) *byteSet {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil
		}
		var s byteSet
		r := re.Rune[0]
		if r >= utf8.RuneSelf {
			if re.Flags&syntax.FoldCase != 0 {
				return nil
			}
			var buf [utf8.UTFMax]byte
			utf8.EncodeRune(buf[:], r)
			s[buf[0]] = true
			return &s
		}
		s[byte(r)] = true
		if re.Flags&syntax.FoldCase != 0 {
			s[lowerByte(byte(r))] = true
			s[upperByte(byte(r))] = true
		}
		return &s
	case syntax.OpCharClass:
		var s byteSet
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
				s[byte(r)] = true
			}
			if hi >= utf8.RuneSelf {
				for b := 0x80; b < 0x100; b++ {
					s[b] = true // some byte of a multi-byte rune
				}
			}
		}
		return &s
	case syntax.OpCapture, syntax.OpPlus:
		return reqBytes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return reqBytes(re.Sub[0])
		}
	case syntax.OpConcat:
		var best *byteSet
		for _, sub := range re.Sub {
			if s := reqBytes(sub); s != nil && (best == nil || s.count() < best.count()) {
				best = s
			}
		}
		return best
	case syntax.OpAlternate:
		var all byteSet
		for _, sub := range re.Sub {
			s := reqBytes(sub)
			if s == nil {
				return nil
			}
			for b, ok := range s {
				all[b] = all[b] || ok
			}
		}
		return &all
	}
	return nil
}

func lowerByte(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func upperByte(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// commonBytes lists bytes from most to least frequent in typical source
// text; bytes not listed are taken to be rarer still.
const commonBytes = " \te\nt(a)os,irn.l\"cd_u=p:mf;/h*g{}-b0y[]1vk2w'x>q<$z#j@!"

// rarestByte returns the index in lit of its least frequent byte: the one
// bytes.IndexByte should look for, so that few false candidates are checked.
func rarestByte(lit []byte) int {
	best, bestRank := 0, -1
	for i, c := range lit {
		rank := strings.IndexByte(commonBytes, c)
		if rank < 0 {
			rank = len(commonBytes)
		}
		if rank > bestRank {
			best, bestRank = i, rank
		}
	}
	return best
}

// indexRare is bytes.Index(hay, lit) that scans for lit's rarest byte
// (at offset rare in lit) instead of its first one.
func indexRare(hay, lit []byte, rare int) int {
	c := lit[rare]
	for pos := rare; pos < len(hay); {
		i := bytes.IndexByte(hay[pos:], c)
		if i < 0 {
			return -1
		}
		start := pos + i - rare
		if start+len(lit) > len(hay) {
			return -1
		}
		if bytes.Equal(hay[start:start+len(lit)], lit) {
			return start
		}
		pos += i + 1
	}
	return -1
}
