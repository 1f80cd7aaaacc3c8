package config

import (
	"reflect"
	"testing"
)

// TestParseAiderFlags covers RA.Aid's AIDER_FLAGS rules: comma-separated
// groups, the first word of a group loses all leading dashes and gets
// exactly two, the rest of the group follows as given, blanks ignored.
func TestParseAiderFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []string
	}{
		{"---dark-mode,----model gpt4", []string{"--dark-mode", "--model", "gpt4"}},
		{"", nil},
		{"   ", nil},
		{"yes-always, dark-mode", []string{"--yes-always", "--dark-mode"}},
		{"--analytics-log file.json", []string{"--analytics-log", "file.json"}},
		{"-v", []string{"--v"}},
		{",, ,edit-format  diff ,", []string{"--edit-format", "diff"}},
		{"--model gpt-4 --weak", []string{"--model", "gpt-4", "--weak"}},
		{"map-tokens\t1024", []string{"--map-tokens", "1024"}},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			if got := parseAiderFlags(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseAiderFlags(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
