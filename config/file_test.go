package config

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestFileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		user    string // written to the user file when project is empty
		project string
		line    int
		key     string
		msg     string
	}{
		{name: "unknown key with a near one", user: "recursion-limit = 5", line: 0, key: "recursion-limit",
			msg: "is not a reach setting: did you mean recursion_limit?"},
		{name: "misspelt key", user: "\nmodle = \"x\"", key: "modle", msg: "is not a reach setting: did you mean model?"},
		{name: "unknown key far from any", user: "colour = \"blue\"", key: "colour",
			msg: "is not a reach setting: remove it; the keys are the flag names with underscores (see reach --help)"},
		{name: "unknown table", user: "[ui]\ntheme = \"dark\"", key: "ui",
			msg: "is not a reach setting: remove it; the keys are the flag names with underscores (see reach --help)"},
		{name: "per-run key", user: "message = \"do it\"", key: "message",
			msg: "cannot be set in a config file: it is for one run; pass -m on the command line"},
		{name: "wrong type: string for integer", user: "model = \"m\"\nrecursion_limit = \"ten\"", line: 2, key: "recursion_limit",
			msg: `must be a whole number (no quotes), such as 3 (got the string "ten")`},
		{name: "wrong type: integer for string", user: "\n\nbase_url = 8080", line: 3, key: "base_url",
			msg: `must be a string in quotes, such as "value" (got the integer 8080)`},
		{name: "wrong type: string for bool", user: `show_cost = "yes"`, line: 1, key: "show_cost",
			msg: `must be true or false (no quotes) (got the string "yes")`},
		{name: "wrong type: string for number", user: `temperature = "hot"`, line: 1, key: "temperature",
			msg: `must be a number (no quotes), such as 0.5 (got the string "hot")`},
		{name: "broken syntax", user: "model = \"m\"\nrecursion_limit = \n", line: 2,
			msg: "is not valid TOML: expected value but found '\\n' instead: fix the syntax on that line"},
		{name: "unterminated string", user: "model = \"m\n", line: 1,
			msg: "is not valid TOML: strings cannot contain newlines: fix the syntax on that line"},
		{name: "policy not a table", user: `policy = "strict"`, line: 1, key: "policy",
			msg: `must be a table: write [policy] on its own line, then allow = ["..."] (got the string "strict")`},
		{name: "policy unknown key", user: "[policy]\nalow = [\"ls\"]", line: 1, key: "policy",
			msg: `has an unknown key "alow": the keys of [policy] are allow, ask and deny`},
		{name: "policy list of non-strings", user: "[policy]\ndeny = [\"ls\", 3]", line: 1, key: "policy.deny",
			msg: "item 2 must be a string in quotes (got the integer 3)"},
		{name: "policy not a list", user: "[policy]\nask = \"npm *\"", line: 1, key: "policy.ask",
			msg: `must be a list of strings, such as ["git status", "go test *"] (got the string "npm *")`},
		{name: "policy empty pattern", user: "[policy]\nallow = [\"ls\", \" \"]", key: "policy.allow",
			msg: "has an empty pattern (item 2): remove it"},
		{name: "project turns on cowboy mode", project: "cowboy_mode = true", key: "cowboy_mode",
			msg: "cannot be set in a project config, which comes with the repository: pass --cowboy-mode, or set it in your user config"},
		{name: "project turns on network", project: "allow_network = true", key: "allow_network",
			msg: "cannot be set in a project config, which comes with the repository: pass --allow-network, or set it in your user config"},
		{name: "project turns off the sandbox", project: `sandbox = "off"`, key: `sandbox = "off"`,
			msg: "cannot be set in a project config, which comes with the repository: pass --sandbox off, or set it in your user config"},
		{name: "project moves the state dir", project: `project_state_dir = "x"`, key: "project_state_dir",
			msg: "cannot be set in the project config, which lives inside the state dir: pass --project-state-dir, or set it in your user config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, fx, err := load(t, run{user: tt.user, project: tt.project})
			ue := asUsage(t, err)
			var fe *FileError
			if !errors.As(ue, &fe) {
				t.Fatalf("%q does not wrap a *FileError", ue.Msg)
			}
			file := fx.userFile
			if tt.project != "" {
				file = filepath.Join(fx.projectDir, ".reach", "config.toml")
			}
			got := FileError{File: fe.File, Line: fe.Line, Key: fe.Key, Msg: fe.Msg}
			want := FileError{File: file, Line: tt.line, Key: tt.key, Msg: tt.msg}
			if got != want {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if ue.Msg != want.Error() || ue.Flag != "" {
				t.Errorf("usage error %q (flag %q), want %q", ue.Msg, ue.Flag, want.Error())
			}
		})
	}
}

func TestFileErrorFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fe   FileError
		want string
	}{
		{FileError{File: "/p/c.toml", Line: 3, Key: "recursion_limit", Msg: "must be a whole number"},
			"/p/c.toml:3: recursion_limit must be a whole number"},
		{FileError{File: "/p/c.toml", Key: "modle", Msg: "is not a reach setting"}, "/p/c.toml: modle is not a reach setting"},
		{FileError{File: "/p/c.toml", Line: 2, Msg: "is not valid TOML: x"}, "/p/c.toml:2: is not valid TOML: x"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			if got := tt.fe.Error(); got != tt.want {
				t.Errorf("got %q", got)
			}
		})
	}
}

func TestProjectFileMayTighten(t *testing.T) {
	t.Parallel()
	c := mustLoad(t, run{project: "cowboy_mode = false\nallow_network = false\nsandbox = \"read-only\"",
		user: "cowboy_mode = true\nallow_network = true"})
	if c.Cowboy || c.AllowNetwork || c.Sandbox != SandboxReadOnly {
		t.Errorf("cowboy %v, network %v, sandbox %q", c.Cowboy, c.AllowNetwork, c.Sandbox)
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"model", "modle", 2}, {"kitten", "sitting", 3}, {"same", "same", 0}}
	for _, tt := range tests {
		t.Run(tt.a+"/"+tt.b, func(t *testing.T) {
			t.Parallel()
			if got := editDistance(tt.a, tt.b); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}
