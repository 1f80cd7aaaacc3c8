package analysis

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"snake_case_name", []string{"snake", "case", "name"}},
		{"camelCaseName", []string{"camel", "case", "name"}},
		{"HTTPServer2Go", []string{"http", "server", "2", "go"}},
		{"don't stop", []string{"dont", "stop"}},
		{"", nil},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := Split(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("Split(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"searching", "search"},
		{"searches", "search"},
		{"flights", "flight"},
		{"relational", "relat"},
		{"go", "go"},
		{"mp3s", "mp3s"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := Stem(tc.in); got != tc.want {
				t.Errorf("Stem(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestTerms(t *testing.T) {
	got := Terms("Can you please find me cheap flights to a city?", StopWords())
	want := []string{"find", "cheap", "flight", "citi"}
	if !slices.Equal(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}
