package analysis

import "strings"

// Stem reduces an English word to its Porter stem (M. F. Porter, "An
// algorithm for suffix stripping", 1980), so that "searching", "searches"
// and "searched" meet. Words of two letters or fewer and words with
// digits are returned unchanged.
func Stem(w string) string {
	if len(w) <= 2 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	b := []byte(w)
	b = step1a(b)
	b = step1b(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5(b)
	return string(b)
}

// cons reports whether b[i] is a consonant in Porter's sense.
func cons(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !cons(b, i-1)
	}
	return true
}

// measure is m in [C](VC)^m[V] for b.
func measure(b []byte) int {
	n, i := 0, 0
	for i < len(b) && cons(b, i) {
		i++
	}
	for i < len(b) {
		for i < len(b) && !cons(b, i) {
			i++
		}
		if i >= len(b) {
			break
		}
		for i < len(b) && cons(b, i) {
			i++
		}
		n++
	}
	return n
}

func hasVowel(b []byte) bool {
	for i := range b {
		if !cons(b, i) {
			return true
		}
	}
	return false
}

func doubleCons(b []byte) bool {
	n := len(b)
	return n >= 2 && b[n-1] == b[n-2] && cons(b, n-1)
}

// cvc: the stem ends consonant-vowel-consonant, the last not w, x or y.
func cvc(b []byte) bool {
	n := len(b)
	if n < 3 || !cons(b, n-1) || cons(b, n-2) || !cons(b, n-3) {
		return false
	}
	c := b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

func hasSuffix(b []byte, s string) bool { return strings.HasSuffix(string(b), s) }

// replace swaps suffix s for r when the remaining stem has measure > m.
func replace(b []byte, s, r string, m int) ([]byte, bool) {
	if !hasSuffix(b, s) {
		return b, false
	}
	st := b[:len(b)-len(s)]
	if measure(st) > m {
		return append(st[:len(st):len(st)], r...), true
	}
	return b, true
}

func step1a(b []byte) []byte {
	switch {
	case hasSuffix(b, "sses"), hasSuffix(b, "ies"):
		return b[:len(b)-2]
	case hasSuffix(b, "ss"):
		return b
	case hasSuffix(b, "s"):
		return b[:len(b)-1]
	}
	return b
}

func step1b(b []byte) []byte {
	if hasSuffix(b, "eed") {
		if measure(b[:len(b)-3]) > 0 {
			return b[:len(b)-1]
		}
		return b
	}
	var st []byte
	switch {
	case hasSuffix(b, "ed") && hasVowel(b[:len(b)-2]):
		st = b[:len(b)-2]
	case hasSuffix(b, "ing") && hasVowel(b[:len(b)-3]):
		st = b[:len(b)-3]
	default:
		return b
	}
	switch {
	case hasSuffix(st, "at"), hasSuffix(st, "bl"), hasSuffix(st, "iz"):
		return append(st[:len(st):len(st)], 'e')
	case doubleCons(st):
		c := st[len(st)-1]
		if c != 'l' && c != 's' && c != 'z' {
			return st[:len(st)-1]
		}
	case measure(st) == 1 && cvc(st):
		return append(st[:len(st):len(st)], 'e')
	}
	return st
}

func step1c(b []byte) []byte {
	if hasSuffix(b, "y") && hasVowel(b[:len(b)-1]) {
		out := append([]byte(nil), b...)
		out[len(out)-1] = 'i'
		return out
	}
	return b
}

func applyList(b []byte, pairs [][2]string, m int) []byte {
	for _, p := range pairs {
		if out, matched := replace(b, p[0], p[1], m); matched {
			return out
		}
	}
	return b
}

func step2(b []byte) []byte {
	return applyList(b, [][2]string{
		{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
		{"abli", "able"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
		{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
		{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	}, 0)
}

func step3(b []byte) []byte {
	return applyList(b, [][2]string{
		{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
	}, 0)
}

func step4(b []byte) []byte {
	for _, s := range []string{"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
		"ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"} {
		if !hasSuffix(b, s) {
			continue
		}
		st := b[:len(b)-len(s)]
		if s == "ion" && (len(st) == 0 || (st[len(st)-1] != 's' && st[len(st)-1] != 't')) {
			return b
		}
		if measure(st) > 1 {
			return st
		}
		return b
	}
	return b
}

func step5(b []byte) []byte {
	if hasSuffix(b, "e") {
		st := b[:len(b)-1]
		if m := measure(st); m > 1 || (m == 1 && !cvc(st)) {
			b = st
		}
	}
	if measure(b) > 1 && doubleCons(b) && b[len(b)-1] == 'l' {
		b = b[:len(b)-1]
	}
	return b
}
