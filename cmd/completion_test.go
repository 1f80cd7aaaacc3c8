package cmd

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/iostreams"
)

// runMain runs reach with args in dir and a fixed environment.
func runMain(t *testing.T, dir string, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := &Factory{
		IO:    &iostreams.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		Env:   func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd: func() (string, error) { return dir, nil },
	}
	code := Main(context.Background(), f, args)
	return code, out.String(), errOut.String()
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	cases := []struct {
		shell string
		want  []string
		check []string // a shell that parses the script: binary, flag
	}{
		{"bash", []string{"# bash completion V2 for reach", "__start_reach"}, []string{"bash", "-n"}},
		{"zsh", []string{"#compdef reach", "_reach"}, []string{"zsh", "-n"}},
		{"fish", []string{"complete -c reach", "__reach_perform_completion"}, []string{"fish", "--no-execute"}},
	}
	for _, tc := range cases {
		t.Run(tc.shell, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runMain(t, t.TempDir(), nil, "completion", tc.shell)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s completion lacks %q", tc.shell, w)
				}
			}
			sh, err := exec.LookPath(tc.check[0])
			if err != nil {
				t.Logf("%s not installed: script not parsed", tc.check[0])
				return
			}
			cmd := exec.Command(sh, tc.check[1])
			cmd.Stdin = strings.NewReader(out)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s does not parse the script: %v\n%s", tc.shell, err, msg)
			}
		})
	}
	t.Run("unknown shell", func(t *testing.T) {
		t.Parallel()
		code, _, errOut := runMain(t, t.TempDir(), nil, "completion", "tcsh")
		if code != 2 || !strings.Contains(errOut, "completion needs one shell: bash, zsh, fish or powershell") {
			t.Errorf("completion tcsh: exit %d, %q", code, errOut)
		}
	})
}

// TestCompletionOffersCommandsAndFlags asks cobra's completion entry point
// what it would offer, as the shells do.
func TestCompletionOffersCommandsAndFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", ""}, []string{"doctor", "completion", "tools", "version"}},
		{[]string{"__complete", "--use-"}, []string{"--use-aider"}},
		{[]string{"__complete", "--sa"}, []string{"--sandbox"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runMain(t, t.TempDir(), nil, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("completions lack %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestHelpDefaultsAreTrue checks that every default --help shows is the
// value a run gets when the flag is not given.
func TestHelpDefaultsAreTrue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, help, errOut := runMain(t, dir, nil, "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fs := pflag.NewFlagSet("reach", pflag.ContinueOnError)
	flags := config.BindFlags(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(fs, flags, func(string) (string, bool) { return "", false }, config.Paths{ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	fs.VisitAll(func(f *pflag.Flag) {
		if !strings.Contains(help, "--"+f.Name) {
			t.Errorf("--help does not list --%s", f.Name)
		}
	})
	cases := []struct {
		flag, shown string
		actual      any
		want        any
	}{
		{"provider", `(default "openai")`, cfg.Provider, "openai"},
		{"sandbox", `(default "workspace-write")`, cfg.Sandbox, config.SandboxWorkspaceWrite},
		{"max-test-cmd-retries", "(default 3)", cfg.MaxTestCmdRetries, 3},
		{"test-cmd-timeout", "(default 300)", cfg.TestCmdTimeout.Seconds(), 300.0},
		{"recursion-limit", "(default 100)", cfg.RecursionLimit, 100},
		{"output-format", `(default "text")`, cfg.OutputFormat, config.OutputText},
		{"project-state-dir", `(default "./.reach")`, cfg.ProjectStateDir, dir + "/.reach"},
		{"log-level", `(default "warn")`, cfg.LogLevel.String(), "WARN"},
		{"max-cost", "(default: none)", cfg.MaxCost == nil, true},
		{"max-tokens", "(default: none)", cfg.MaxTokens == nil, true},
		{"temperature", "(default: the model's)", cfg.Temperature == nil, true},
		{"use-aider", "", cfg.UseAider, false},
		{"cowboy-mode", "", cfg.Cowboy, false},
	}
	for _, tc := range cases {
		t.Run(tc.flag, func(t *testing.T) {
			line := helpLine(help, "--"+tc.flag+" ")
			if line == "" {
				t.Fatalf("--help has no line for --%s", tc.flag)
			}
			if tc.shown != "" && !strings.Contains(line, tc.shown) {
				t.Errorf("--help shows %q, want it to contain %q", line, tc.shown)
			}
			if tc.shown == "" && strings.Contains(line, "default") {
				t.Errorf("--help shows a default for an off-by-default switch: %q", line)
			}
			if tc.actual != tc.want {
				t.Errorf("a run gets %v for --%s, want %v", tc.actual, tc.flag, tc.want)
			}
		})
	}
}

func helpLine(help, flag string) string {
	for _, l := range strings.Split(help, "\n") {
		if strings.Contains(l, flag) {
			return l
		}
	}
	return ""
}
