package config

import (
	"strings"
	"testing"
)

func TestModelOverrides(t *testing.T) {
	t.Parallel()
	c := mustLoad(t, run{
		env: withKey(nil),
		user: `[models."gpt-4.1"]
context_window = 100000
input_per_mtok = 2
output_per_mtok = 8.5

[models."my-local"]
context_window = 32768
`,
		project: `[models."gpt-4.1"]
input_per_mtok = 1.5
`,
	})
	gpt := c.Models["gpt-4.1"]
	if gpt.ContextWindow == nil || *gpt.ContextWindow != 100000 {
		t.Fatalf("window %v: the project file must keep the user file's window", gpt.ContextWindow)
	}
	if gpt.InputPerMTok == nil || *gpt.InputPerMTok != 1.5 || gpt.OutputPerMTok == nil || *gpt.OutputPerMTok != 8.5 {
		t.Fatalf("prices %v %v: the project file wins per field", *gpt.InputPerMTok, *gpt.OutputPerMTok)
	}
	local := c.Models["my-local"]
	if local.ContextWindow == nil || *local.ContextWindow != 32768 || local.InputPerMTok != nil {
		t.Fatalf("my-local %+v", local)
	}
}

func TestModelOverrideErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, want string
	}{
		{"not a table", "models = 3\n", "a table"},
		{"entry not a table", "[models]\nx = 3\n", `"x"`},
		{"unknown key", "[models.x]\nwindow = 3\n", `unknown key "window"`},
		{"window too small", "[models.x]\ncontext_window = 10\n", "at least 1024"},
		{"window as string", "[models.x]\ncontext_window = \"big\"\n", "whole number"},
		{"negative price", "[models.x]\ninput_per_mtok = -1\n", "must not be negative"},
		{"price as string", "[models.x]\noutput_per_mtok = \"$2\"\n", "price in US dollars"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := load(t, run{env: withKey(nil), user: tc.file})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "config.toml") {
				t.Fatalf("err = %v, want it to name the file and say %q", err, tc.want)
			}
		})
	}
}
