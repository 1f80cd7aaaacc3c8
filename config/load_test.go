package config

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, fx, err := load(t, run{})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"Provider", c.Provider, "openai"},
		{"Model", c.Model, "gpt-4.1"},
		{"BaseURL", c.BaseURL, "https://api.openai.com/v1"},
		{"APIKeyEnv", c.APIKeyEnv, "OPENAI_API_KEY"},
		{"Temperature", c.Temperature, (*float64)(nil)},
		{"Sandbox", c.Sandbox, SandboxWorkspaceWrite},
		{"MaxTestCmdRetries", c.MaxTestCmdRetries, 3},
		{"TestCmdTimeout", c.TestCmdTimeout, 300 * time.Second},
		{"RecursionLimit", c.RecursionLimit, 100},
		{"MaxCost", c.MaxCost, (*float64)(nil)},
		{"MaxTokens", c.MaxTokens, (*int)(nil)},
		{"OutputFormat", c.OutputFormat, OutputText},
		{"ProjectStateDir", c.ProjectStateDir, filepath.Join(fx.projectDir, ".reach")},
		{"LogLevel", c.LogLevel, slog.LevelWarn},
		{"MCPConfig", c.MCPConfig, ""},
		{"HIL", c.HIL, false},
		{"Files", len(c.Files), 0},
	}
	for _, ch := range checks {
		t.Run(ch.name, func(t *testing.T) {
			if !reflect.DeepEqual(ch.got, ch.want) {
				t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
			}
		})
	}
}

func TestPrecedence(t *testing.T) {
	t.Parallel()
	recursion := func(c *Config) any { return c.RecursionLimit }
	model := func(c *Config) any { return c.Model }
	baseURL := func(c *Config) any { return c.BaseURL }
	provider := func(c *Config) any { return c.Provider }
	sandbox := func(c *Config) any { return c.Sandbox }
	temperature := func(c *Config) any {
		if c.Temperature == nil {
			return "unset"
		}
		return *c.Temperature
	}
	tests := []struct {
		name string
		run  run
		get  func(*Config) any
		want any
	}{
		{"recursion: flag beats project and user", run{args: []string{"--recursion-limit", "7"},
			user: "recursion_limit = 5", project: "recursion_limit = 6"}, recursion, 7},
		{"recursion: project beats user", run{user: "recursion_limit = 5", project: "recursion_limit = 6"}, recursion, 6},
		{"recursion: user beats default", run{user: "recursion_limit = 5"}, recursion, 5},
		{"recursion: default", run{}, recursion, 100},
		{"recursion: flag equal to default still wins", run{args: []string{"--recursion-limit=100"},
			project: "recursion_limit = 6"}, recursion, 100},

		{"model: flag beats env", run{args: []string{"--model", "flag-m"}, env: map[string]string{"REACH_MODEL": "env-m"},
			user: `model = "user-m"`, project: `model = "proj-m"`}, model, "flag-m"},
		{"model: env beats project", run{env: map[string]string{"REACH_MODEL": "env-m"},
			user: `model = "user-m"`, project: `model = "proj-m"`}, model, "env-m"},
		{"model: project beats user", run{user: `model = "user-m"`, project: `model = "proj-m"`}, model, "proj-m"},
		{"model: user beats default", run{user: `model = "user-m"`}, model, "user-m"},

		{"base url: flag beats env", run{args: []string{"--base-url", "http://flag/v1"},
			env: map[string]string{"OPENAI_BASE_URL": "http://env/v1"}, project: `base_url = "http://proj/v1"`}, baseURL, "http://flag/v1"},
		{"base url: OPENAI_BASE_URL beats project", run{env: map[string]string{"OPENAI_BASE_URL": "http://env/v1"},
			project: `base_url = "http://proj/v1"`}, baseURL, "http://env/v1"},
		{"base url: OPENAI_BASE_URL beats OPENAI_API_BASE", run{env: map[string]string{
			"OPENAI_BASE_URL": "http://a/v1", "OPENAI_API_BASE": "http://b/v1"}}, baseURL, "http://a/v1"},
		{"base url: OPENAI_API_BASE", run{env: map[string]string{"OPENAI_API_BASE": "http://b/v1"}}, baseURL, "http://b/v1"},
		{"base url: empty env counts as unset", run{env: map[string]string{"OPENAI_BASE_URL": ""},
			user: `base_url = "http://user/v1"`}, baseURL, "http://user/v1"},
		{"base url: project beats user", run{user: `base_url = "http://user/v1"`, project: `base_url = "http://proj/v1"`},
			baseURL, "http://proj/v1"},

		{"provider: flag beats env", run{args: []string{"--provider", "deepseek"},
			env: map[string]string{"REACH_PROVIDER": "ollama"}, project: `provider = "openrouter"`}, provider, "deepseek"},
		{"provider: env beats project", run{env: map[string]string{"REACH_PROVIDER": "ollama"},
			project: `provider = "openrouter"`, user: `provider = "deepseek"`}, provider, "ollama"},
		{"provider: project beats user", run{project: `provider = "openrouter"`, user: `provider = "deepseek"`}, provider, "openrouter"},

		{"sandbox: flag beats project", run{args: []string{"--sandbox", "off"}, project: `sandbox = "read-only"`}, sandbox, SandboxOff},
		{"sandbox: project beats user", run{user: `sandbox = "off"`, project: `sandbox = "read-only"`}, sandbox, SandboxReadOnly},

		{"temperature: flag zero is set", run{args: []string{"--temperature", "0"}, user: "temperature = 1.5"}, temperature, 0.0},
		{"temperature: integer in file", run{user: "temperature = 1"}, temperature, 1.0},
		{"temperature: unset", run{}, temperature, "unset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := mustLoad(t, tt.run)
			if got := tt.get(c); got != tt.want {
				t.Errorf("got %v (%T), want %v (%T)", got, got, tt.want, tt.want)
			}
		})
	}
}

// A model or base URL belongs to the provider in effect where it was set.
func TestProviderScopedSettings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		run             run
		provider, model string
		baseURL, keyEnv string
	}{
		{"switching provider by flag drops the user's model",
			run{args: []string{"--provider", "ollama"}, user: `model = "gpt-4.1-mini"`},
			"ollama", "qwen2.5-coder", "http://localhost:11434/v1", ""},
		{"model set with its provider is kept",
			run{user: "provider = \"ollama\"\nmodel = \"llama3\""}, "ollama", "llama3", "http://localhost:11434/v1", ""},
		{"repeating the same provider keeps the model",
			run{args: []string{"--provider", "ollama"}, user: "provider = \"ollama\"\nmodel = \"llama3\""},
			"ollama", "llama3", "http://localhost:11434/v1", ""},
		{"project provider drops the user's model and base url",
			run{user: "model = \"x\"\nbase_url = \"http://u/v1\"", project: `provider = "deepseek"`},
			"deepseek", "deepseek-chat", "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"},
		{"OPENAI_BASE_URL follows a switch to openai-compatible",
			run{args: []string{"--provider", "openai-compatible"}, env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"}},
			"openai-compatible", "", "http://127.0.0.1:8080/v1", "OPENAI_API_KEY"},
		{"OPENAI_BASE_URL does not apply to openrouter",
			run{args: []string{"--provider", "openrouter"}, env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"}},
			"openrouter", "openai/gpt-4.1", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"},
		{"flag model applies to any provider",
			run{args: []string{"--model", "m"}, user: `provider = "ollama"`}, "ollama", "m", "http://localhost:11434/v1", ""},
		{"api_key_env scoped to its provider",
			run{user: "provider = \"openai-compatible\"\nbase_url = \"http://h/v1\"\napi_key_env = \"TOGETHER_API_KEY\""},
			"openai-compatible", "", "http://h/v1", "TOGETHER_API_KEY"},
		{"api_key_env dropped when the provider changes",
			run{args: []string{"--provider", "openai"}, user: "provider = \"openai-compatible\"\nbase_url = \"http://h/v1\"\napi_key_env = \"TOGETHER_API_KEY\""},
			"openai", "gpt-4.1", "https://api.openai.com/v1", "OPENAI_API_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := mustLoad(t, tt.run)
			got := [4]string{c.Provider, c.Model, c.BaseURL, c.APIKeyEnv}
			want := [4]string{tt.provider, tt.model, tt.baseURL, tt.keyEnv}
			if got != want {
				t.Errorf("provider, model, base URL, key env = %q, want %q", got, want)
			}
		})
	}
}

func TestProviderDefaultsAndKeys(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"OPENAI_API_KEY": "k-openai", "OPENROUTER_API_KEY": "k-router",
		"DEEPSEEK_API_KEY": "k-deep", "ANTHROPIC_API_KEY": "k-anth",
	}
	tests := []struct {
		args                        []string
		baseURL, model, keyEnv, key string
	}{
		{[]string{"--provider", "openai"}, "https://api.openai.com/v1", "gpt-4.1", "OPENAI_API_KEY", "k-openai"},
		{[]string{"--provider", "openrouter"}, "https://openrouter.ai/api/v1", "openai/gpt-4.1", "OPENROUTER_API_KEY", "k-router"},
		{[]string{"--provider", "deepseek"}, "https://api.deepseek.com/v1", "deepseek-chat", "DEEPSEEK_API_KEY", "k-deep"},
		{[]string{"--provider", "anthropic"}, "https://api.anthropic.com/v1/", "claude-sonnet-4-5", "ANTHROPIC_API_KEY", "k-anth"},
		{[]string{"--provider", "ollama"}, "http://localhost:11434/v1", "qwen2.5-coder", "", ""},
		{[]string{"--provider", "openai-compatible", "--base-url", "http://127.0.0.1:8080/v1"},
			"http://127.0.0.1:8080/v1", "", "OPENAI_API_KEY", "k-openai"},
	}
	for _, tt := range tests {
		t.Run(tt.args[1], func(t *testing.T) {
			t.Parallel()
			c := mustLoad(t, run{args: tt.args, env: env})
			got := [4]string{c.BaseURL, c.Model, c.APIKeyEnv, c.APIKey.Value()}
			want := [4]string{tt.baseURL, tt.model, tt.keyEnv, tt.key}
			if got != want {
				t.Errorf("base URL, model, key env, key = %q, want %q", got, want)
			}
			if err := c.CheckCredentials(); err != nil {
				t.Errorf("CheckCredentials with every key set: %v", err)
			}
		})
	}
}

func TestExpertFallback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  run
		want Endpoint
	}{
		{"everything from the main model",
			run{args: []string{"--model", "gpt-5", "--base-url", "http://proxy/v1"}, env: map[string]string{"OPENAI_API_KEY": "main"}},
			Endpoint{"openai", "gpt-5", "http://proxy/v1", "main", "OPENAI_API_KEY"}},
		{"expert model only",
			run{args: []string{"--expert-model", "o3"}, env: map[string]string{"OPENAI_API_KEY": "main"}},
			Endpoint{"openai", "o3", "https://api.openai.com/v1", "main", "OPENAI_API_KEY"}},
		{"EXPERT_OPENAI_API_KEY overrides the key",
			run{env: map[string]string{"OPENAI_API_KEY": "main", "EXPERT_OPENAI_API_KEY": "exp"}},
			Endpoint{"openai", "gpt-4.1", "https://api.openai.com/v1", "exp", "EXPERT_OPENAI_API_KEY"}},
		{"EXPERT_OPENAI_BASE_URL overrides the base url",
			run{env: map[string]string{"OPENAI_API_KEY": "main", "EXPERT_OPENAI_BASE_URL": "http://exp/v1"}},
			Endpoint{"openai", "gpt-4.1", "http://exp/v1", "main", "OPENAI_API_KEY"}},
		{"other provider takes its own defaults and key",
			run{args: []string{"--model", "gpt-5", "--expert-provider", "deepseek"},
				env: map[string]string{"OPENAI_API_KEY": "main", "DEEPSEEK_API_KEY": "deep"}},
			Endpoint{"deepseek", "deepseek-chat", "https://api.deepseek.com/v1", "deep", "DEEPSEEK_API_KEY"}},
		{"EXPERT_ prefix of another provider's variable",
			run{args: []string{"--expert-provider", "deepseek"},
				env: map[string]string{"DEEPSEEK_API_KEY": "deep", "EXPERT_DEEPSEEK_API_KEY": "edeep"}},
			Endpoint{"deepseek", "deepseek-chat", "https://api.deepseek.com/v1", "edeep", "EXPERT_DEEPSEEK_API_KEY"}},
		{"expert settings from a file",
			run{user: "expert_provider = \"openrouter\"\nexpert_model = \"anthropic/claude-opus-4\"\nexpert_api_key_env = \"MY_KEY\"",
				env: map[string]string{"MY_KEY": "mine"}},
			Endpoint{"openrouter", "anthropic/claude-opus-4", "https://openrouter.ai/api/v1", "mine", "MY_KEY"}},
		{"flag expert provider drops the file's expert model",
			run{args: []string{"--expert-provider", "ollama"}, user: "expert_provider = \"openrouter\"\nexpert_model = \"x\""},
			Endpoint{"ollama", "qwen2.5-coder", "http://localhost:11434/v1", "", ""}},
		{"local main model, local expert",
			run{args: []string{"--provider", "ollama", "--model", "llama3"}},
			Endpoint{"ollama", "llama3", "http://localhost:11434/v1", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := mustLoad(t, tt.run)
			if c.Expert != tt.want {
				show := func(e Endpoint) string {
					return fmt.Sprintf("%q", [5]string{e.Provider, e.Model, e.BaseURL, e.APIKey.Value(), e.APIKeyEnv})
				}
				t.Errorf("expert = %s\nwant     %s", show(c.Expert), show(tt.want))
			}
		})
	}
}

func TestCheckCredentials(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		run      run
		wantFlag string
		wantMsg  string
	}{
		{"openai without key", run{}, "OPENAI_API_KEY",
			"OPENAI_API_KEY is not set: export it, or pass --provider ollama / --base-url for a local server"},
		{"openrouter without key", run{args: []string{"--provider", "openrouter"}}, "OPENROUTER_API_KEY",
			"OPENROUTER_API_KEY is not set: export it (the key for --provider openrouter), or choose another --provider"},
		{"expert on another provider without key", run{args: []string{"--expert-provider", "anthropic"},
			env: map[string]string{"OPENAI_API_KEY": "k"}}, "ANTHROPIC_API_KEY",
			"ANTHROPIC_API_KEY is not set, and the expert (--expert-provider anthropic) needs it: export it, or pass --no-expert"},
		{"expert ignored with --no-expert", run{args: []string{"--expert-provider", "anthropic", "--no-expert"},
			env: map[string]string{"OPENAI_API_KEY": "k"}}, "", ""},
		{"ollama needs none", run{args: []string{"--provider", "ollama"}}, "", ""},
		{"openai-compatible needs none", run{args: []string{"--provider", "openai-compatible", "--base-url", "http://127.0.0.1:8080/v1"}}, "", ""},
		{"openai on a local server needs none", run{env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := mustLoad(t, tt.run).CheckCredentials()
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("CheckCredentials: %v", err)
				}
				return
			}
			ue := asUsage(t, err)
			if ue.Flag != tt.wantFlag || ue.Msg != tt.wantMsg {
				t.Errorf("got %q %q\nwant %q %q", ue.Flag, ue.Msg, tt.wantFlag, tt.wantMsg)
			}
		})
	}
}

func TestTaskAndModes(t *testing.T) {
	t.Parallel()
	t.Run("message", func(t *testing.T) {
		t.Parallel()
		c := mustLoad(t, run{args: []string{"-m", "fix the bug"}})
		if c.Task() != "fix the bug" || c.RequireTask() != nil {
			t.Errorf("Task() = %q, RequireTask() = %v", c.Task(), c.RequireTask())
		}
	})
	t.Run("msg file relative to the project", func(t *testing.T) {
		t.Parallel()
		c, fx, err := load(t, run{args: []string{"--msg-file", "task.md"}, files: map[string]string{"task.md": "add a flag\n"}})
		if err != nil {
			t.Fatal(err)
		}
		if c.Task() != "add a flag\n" || c.MsgFile != filepath.Join(fx.projectDir, "task.md") {
			t.Errorf("Task() = %q, MsgFile = %q", c.Task(), c.MsgFile)
		}
	})
	t.Run("no task", func(t *testing.T) {
		t.Parallel()
		ue := asUsage(t, mustLoad(t, run{}).RequireTask())
		if ue.Msg != `no task: give one with -m "..." or --msg-file PATH` {
			t.Errorf("got %q", ue.Msg)
		}
	})
	t.Run("chat needs no task and implies hil", func(t *testing.T) {
		t.Parallel()
		c := mustLoad(t, run{args: []string{"--chat"}})
		if c.RequireTask() != nil || !c.HIL {
			t.Errorf("RequireTask() = %v, HIL = %v", c.RequireTask(), c.HIL)
		}
	})
	t.Run("-H short for --hil", func(t *testing.T) {
		t.Parallel()
		if c := mustLoad(t, run{args: []string{"-H"}}); !c.HIL {
			t.Error("HIL not set by -H")
		}
	})
}
