package config

import (
	"errors"
	"strings"
	"testing"
)

func asUsage(t *testing.T, err error) *UsageError {
	t.Helper()
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v (%T) is not a *UsageError", err, err)
	}
	return ue
}

func TestValidationMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		run      run
		wantFlag string
		wantMsg  string // exact; "{project}" stands for the project dir
	}{
		{"temperature too high", run{args: []string{"--temperature", "3"}},
			"--temperature", "--temperature must be between 0.0 and 2.0 (got 3)"},
		{"temperature negative", run{args: []string{"--temperature=-0.5"}},
			"--temperature", "--temperature must be between 0.0 and 2.0 (got -0.5)"},
		{"temperature from the project file names the file", run{project: "temperature = 2.5"},
			"--temperature", "temperature in {project}/.reach/config.toml must be between 0.0 and 2.0 (got 2.5)"},
		{"recursion limit zero", run{args: []string{"--recursion-limit", "0"}},
			"--recursion-limit", "--recursion-limit must be greater than 0 (got 0)"},
		{"recursion limit from user file", run{user: "recursion_limit = -4"},
			"--recursion-limit", "recursion_limit in {user} must be greater than 0 (got -4)"},
		{"output format", run{args: []string{"--output-format", "xml"}},
			"--output-format", `--output-format must be text, json or stream-json (got "xml")`},
		{"message and msg file", run{args: []string{"-m", "x", "--msg-file", "t.md"}},
			"--msg-file", "-m and --msg-file cannot be used together: give the task one way"},
		{"empty message", run{args: []string{"-m", "  "}},
			"--message", `-m is empty: give the task text, e.g. -m "fix the failing test"`},
		{"chat and research only", run{args: []string{"--chat", "--research-only"}},
			"--chat", "--chat cannot be combined with --research-only: drop one of them"},
		{"auto test without test cmd", run{args: []string{"--auto-test"}},
			"--auto-test", `--auto-test needs --test-cmd: give the command that runs the tests, e.g. --test-cmd "go test ./..."`},
		{"max cost zero", run{args: []string{"--max-cost", "0"}},
			"--max-cost", "--max-cost must be greater than 0 (got 0): give a budget in USD, e.g. --max-cost 2.50"},
		{"max cost negative in file", run{user: "max_cost = -1.5"},
			"--max-cost", "max_cost in {user} must be greater than 0 (got -1.5): give a budget in USD, e.g. --max-cost 2.50"},
		{"max tokens zero", run{args: []string{"--max-tokens", "0"}},
			"--max-tokens", "--max-tokens must be greater than 0 (got 0)"},
		{"unknown provider", run{args: []string{"--provider", "gemini"}},
			"--provider", `--provider: unknown provider "gemini": use one of openai, openai-compatible, openrouter, ollama, deepseek, anthropic`},
		{"unknown provider from env", run{env: map[string]string{"REACH_PROVIDER": "azure"}},
			"--provider", `REACH_PROVIDER: unknown provider "azure": use one of openai, openai-compatible, openrouter, ollama, deepseek, anthropic`},
		{"unknown expert provider", run{args: []string{"--expert-provider", "x"}},
			"--expert-provider", `--expert-provider: unknown provider "x": use one of openai, openai-compatible, openrouter, ollama, deepseek, anthropic`},
		{"openai-compatible without base url", run{args: []string{"--provider", "openai-compatible"}},
			"--base-url", "--provider openai-compatible needs --base-url (or OPENAI_BASE_URL): the server's URL, e.g. http://127.0.0.1:8080/v1"},
		{"expert openai-compatible without base url", run{args: []string{"--expert-provider", "openai-compatible"}},
			"--expert-base-url", "--expert-provider openai-compatible needs --expert-base-url (or EXPERT_OPENAI_BASE_URL): the server's URL, e.g. http://127.0.0.1:8080/v1"},
		{"base url without scheme", run{args: []string{"--base-url", "localhost:8080"}},
			"--base-url", `--base-url must be an http or https URL such as http://127.0.0.1:8080/v1 (got "localhost:8080")`},
		{"base url from env", run{env: map[string]string{"OPENAI_BASE_URL": "ftp://x"}},
			"--base-url", `OPENAI_BASE_URL must be an http or https URL such as http://127.0.0.1:8080/v1 (got "ftp://x")`},
		{"sandbox value", run{args: []string{"--sandbox", "docker"}},
			"--sandbox", `--sandbox must be read-only, workspace-write or off (got "docker")`},
		{"log level value", run{args: []string{"--log-level", "trace"}},
			"--log-level", `--log-level must be debug, info, warn or error (got "trace")`},
		{"negative retries", run{args: []string{"--max-test-cmd-retries", "-1"}},
			"--max-test-cmd-retries", "--max-test-cmd-retries must be 0 or more (got -1)"},
		{"zero test timeout", run{args: []string{"--test-cmd-timeout", "0"}},
			"--test-cmd-timeout", "--test-cmd-timeout must be greater than 0 seconds (got 0)"},
		{"empty state dir", run{args: []string{"--project-state-dir", ""}},
			"--project-state-dir", "--project-state-dir must not be empty: give a directory, e.g. ./.reach"},
		{"missing msg file", run{args: []string{"--msg-file", "nope.md"}},
			"--msg-file", "--msg-file {project}/nope.md cannot be read: no such file or directory: fix the path"},
		{"empty msg file", run{args: []string{"--msg-file", "t.md"}, files: map[string]string{"t.md": " \n\n"}},
			"--msg-file", `--msg-file {project}/t.md is empty: write the task in it, or use -m "..."`},
		{"huge msg file", run{args: []string{"--msg-file", "t.md"}, files: map[string]string{"t.md": strings.Repeat("x", maxTaskFile+1)}},
			"--msg-file", "--msg-file {project}/t.md is larger than 1 MiB: put the task in it, not the data; point the model at files instead"},
		{"missing mcp config", run{args: []string{"--mcp-config", "servers.json"}},
			"--mcp-config", "--mcp-config: cannot read {project}/servers.json: no such file or directory: fix the path"},
		{"custom tools is a directory", run{args: []string{"--custom-tools", "."}},
			"--custom-tools", "--custom-tools: {project} is not a regular file: give the path of the file"},
		{"missing aider config from file", run{user: `aider_config = "aider.yml"`},
			"--aider-config", "aider_config in {user}: cannot read {project}/aider.yml: no such file or directory: fix the path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, fx, err := load(t, tt.run)
			ue := asUsage(t, err)
			want := strings.NewReplacer("{project}", fx.projectDir, "{user}", fx.userFile).Replace(tt.wantMsg)
			if ue.Flag != tt.wantFlag || ue.Msg != want {
				t.Errorf("got  %q %q\nwant %q %q", ue.Flag, ue.Msg, tt.wantFlag, want)
			}
		})
	}
}

func TestValidCombinations(t *testing.T) {
	t.Parallel()
	tests := []run{
		{args: []string{"--chat", "-m", "start here"}},
		{args: []string{"--auto-test", "--test-cmd", "go test ./..."}},
		{args: []string{"--max-test-cmd-retries", "0", "--temperature", "2", "--max-cost", "0.01", "--max-tokens", "1"}},
		{args: []string{"--output-format", "stream-json", "--log-level", "debug", "--sandbox", "read-only"}},
		{args: []string{"--base-url", "https://example.com/openai/v1"}},
	}
	for _, r := range tests {
		t.Run(strings.Join(r.args, " "), func(t *testing.T) {
			t.Parallel()
			mustLoad(t, r)
		})
	}
}
