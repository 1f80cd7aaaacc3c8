package llmtest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		size int
		want []string
	}{
		{"", 3, nil},
		{"abcdefg", 0, []string{"abcdefg"}},
		{"abcdefg", 3, []string{"abc", "def", "g"}},
		{"abc", 1, []string{"a", "b", "c"}},
		{"é世x", 1, []string{"é", "世", "x"}},
		{"aé世", 3, []string{"aé", "世"}},
	}
	for _, tt := range tests {
		got := split(tt.s, tt.size)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("split(%q, %d) = %q, want %q", tt.s, tt.size, got, tt.want)
		}
		for _, p := range got {
			if !utf8.ValidString(p) {
				t.Errorf("split(%q, %d) broke a rune: %q", tt.s, tt.size, p)
			}
		}
	}
}
