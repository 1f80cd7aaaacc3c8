package findfile

import (
	"strings"
)

// Scoring constants, in the spirit of fzf's: a matched character is worth
// scoreMatch, more at word boundaries, more again inside the file name;
// gaps cost a little.
const (
	scoreMatch        = 16
	gapStart          = -3
	gapExtension      = -1
	bonusSlash        = 9 // right after a path separator
	bonusBoundary     = 8 // after _ - . space, or at the start
	bonusCamel        = 7 // lower-to-upper or letter-to-digit step
	bonusConsecutive  = 4 // minimum bonus of a char that follows a matched one
	bonusFileName     = 6 // each char matched inside the base name
	bonusCaseExact    = 6 // an upper-case query letter meets the same upper-case letter
	firstCharMultiple = 2
	typoPenalty       = 85 // percent of the score kept by a one-typo match
)

// candidate is a path prepared once for every query.
type candidate struct {
	path  string
	lower string
	base  int // index of the first byte of the base name
}

func newCandidate(p string) candidate {
	return candidate{path: p, lower: lowerASCII(p), base: strings.LastIndexByte(p, '/') + 1}
}

// scorer scores paths against one term of a query. It holds scratch rows,
// so one scorer serves one goroutine.
type scorer struct {
	pat   []byte // lower-case
	upper []bool // where the term as typed has an upper-case letter
	smart bool   // capitals must match capitals
	ideal int    // score of a perfect match: the term as a whole file name
	h, c  []int  // DP rows: best score ending at j, chunk bonus at j
	ph    []int  // previous row
	pc    []int
}

// newScorer prepares term. With smartCase, a capital in the term only
// matches the same capital, as in fzf's smart case but still letting
// lower-case letters match either case.
func newScorer(term string, smartCase bool) *scorer {
	s := &scorer{pat: []byte(lowerASCII(term)), upper: make([]bool, len(term)), smart: smartCase}
	for i := range len(term) {
		s.upper[i] = isUpper(term[i])
	}
	s.ideal, _ = s.score(newCandidate("/" + term))
	if s.ideal <= 0 {
		s.ideal = 1
	}
	return s
}

// bonusAt is the bonus of matching text[j], from the characters around it.
func bonusAt(path string, j int) int {
	if j == 0 {
		return bonusBoundary
	}
	prev, cur := path[j-1], path[j]
	switch {
	case prev == '/':
		return bonusSlash
	case prev == '_' || prev == '-' || prev == '.' || prev == ' ':
		if isAlnum(cur) {
			return bonusBoundary
		}
	case isLower(prev) && isUpper(cur), isLetter(prev) && isDigit(cur):
		return bonusCamel
	}
	if !isAlnum(cur) {
		return bonusBoundary / 2 // matching a separator itself
	}
	return 0
}

// subsequenceFrom returns where the term starts to match c as a
// subsequence, or -1 if it does not.
func (s *scorer) subsequenceFrom(c *candidate) int {
	first := -1
	j := 0
	for i, p := range s.pat {
		for {
			k := strings.IndexByte(c.lower[j:], p)
			if k < 0 {
				return -1
			}
			j += k + 1
			if s.caseOK(i, c.path[j-1]) {
				break
			}
		}
		if i == 0 {
			first = j - 1
		}
	}
	return first
}

// caseOK reports whether text byte b may match term byte i.
func (s *scorer) caseOK(i int, b byte) bool {
	return !s.smart || !s.upper[i] || isUpper(b)
}

// score returns the best alignment score of the term in c, and false when
// the term is not a subsequence of the path.
func (s *scorer) score(c candidate) (int, bool) {
	n := len(s.pat)
	if n == 0 {
		return 0, true
	}
	start := s.subsequenceFrom(&c)
	if start < 0 {
		return 0, false
	}
	text := c.lower[start:]
	m := len(text)
	s.h, s.c, s.ph, s.pc = grow(s.h, m), grow(s.c, m), grow(s.ph, m), grow(s.pc, m)
	const none = -1 << 30
	best := none
	for i := 0; i < n; i++ {
		p := s.pat[i]
		gap := none // best previous-row score that can reach j with a gap
		for j := 0; j < m; j++ {
			h, chunk := none, 0
			if i > 0 && j >= 2 && s.ph[j-2] > none {
				gap = max(gap+gapExtension, s.ph[j-2]+gapStart)
			} else if gap > none {
				gap += gapExtension
			}
			if text[j] == p && s.caseOK(i, c.path[start+j]) {
				b := bonusAt(c.path, start+j)
				if start+j >= c.base {
					b += bonusFileName
				}
				if s.upper[i] && c.path[start+j] == p-'a'+'A' {
					b += bonusCaseExact
				}
				if i == 0 {
					h, chunk = scoreMatch+b*firstCharMultiple, b
				} else {
					if j > 0 && s.ph[j-1] > none { // consecutive
						cb := max(b, s.pc[j-1], bonusConsecutive)
						h, chunk = s.ph[j-1]+scoreMatch+cb, cb
					}
					if gap > none && gap+scoreMatch+b > h {
						h, chunk = gap+scoreMatch+b, b
					}
				}
			}
			s.h[j], s.c[j] = h, chunk
			if i == n-1 && h > best {
				best = h
			}
		}
		s.h, s.ph = s.ph, s.h
		s.c, s.pc = s.pc, s.c
	}
	return best, best > none
}

func grow(b []int, n int) []int {
	if cap(b) < n {
		return make([]int, n)
	}
	return b[:n]
}

// normalise maps a raw score onto 0–100, 100 being the term matched as a
// whole file name.
func (s *scorer) normalise(raw int) int {
	v := raw * 100 / s.ideal
	return max(0, min(100, v))
}

func isLower(b byte) bool  { return 'a' <= b && b <= 'z' }
func isUpper(b byte) bool  { return 'A' <= b && b <= 'Z' }
func isDigit(b byte) bool  { return '0' <= b && b <= '9' }
func isLetter(b byte) bool { return isLower(b) || isUpper(b) }
func isAlnum(b byte) bool  { return isLetter(b) || isDigit(b) || b >= 0x80 }

// lowerASCII lower-cases ASCII letters only, so that byte offsets in the
// result are those of s.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if isUpper(s[i]) {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if isUpper(b[j]) {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
