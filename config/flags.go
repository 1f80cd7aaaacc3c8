package config

import (
	"github.com/spf13/pflag"
)

// Flags holds the values of the flags BindFlags registered. Load reads only
// the flags the user actually gave (FlagSet.Changed); the rest come from the
// environment, the config files or the defaults.
type Flags struct {
	Message, MsgFile                             string
	Provider, Model, BaseURL                     string
	ExpertProvider, ExpertModel, ExpertBaseURL   string
	Temperature                                  float64
	ResearchOnly, ResearchAndPlanOnly, Chat, HIL bool
	NoExpert, Cowboy, AllowNetwork, UseAider     bool
	Sandbox, AiderConfig, TestCmd                string
	AutoTest                                     bool
	MaxTestCmdRetries, TestCmdTimeout            int
	RecursionLimit, MaxTokens                    int
	MaxCost                                      float64
	ExitAtLimit, ShowCost                        bool
	CustomTools, MCPConfig, OutputFormat         string
	ProjectStateDir, LogLevel                    string
	WipeProjectMemory, NoTUI                     bool
}

// BindFlags registers every flag of SPEC §1 on fs, with its default and help.
func BindFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{}
	fs.StringVarP(&f.Message, "message", "m", "", "the task to run")
	fs.StringVar(&f.MsgFile, "msg-file", "", "read the task from this file")

	fs.StringVar(&f.Provider, "provider", DefaultProvider, "model provider: "+providerNames())
	fs.StringVar(&f.Model, "model", "", "model name (default: the provider's default model)")
	fs.StringVar(&f.BaseURL, "base-url", "", "API base URL, e.g. http://127.0.0.1:8080/v1 (default: env OPENAI_BASE_URL, then OPENAI_API_BASE, then the provider's)")
	fs.StringVar(&f.ExpertProvider, "expert-provider", "", "provider of the expert model (default: --provider)")
	fs.StringVar(&f.ExpertModel, "expert-model", "", "expert model name (default: --model)")
	fs.StringVar(&f.ExpertBaseURL, "expert-base-url", "", "expert API base URL (default: env EXPERT_OPENAI_BASE_URL, then --base-url)")
	fs.Float64Var(&f.Temperature, "temperature", 0, "sampling temperature, 0.0-2.0 (default: the model's)")

	fs.BoolVar(&f.ResearchOnly, "research-only", false, "stop after research")
	fs.BoolVar(&f.ResearchAndPlanOnly, "research-and-plan-only", false, "stop after planning and print the plan")
	fs.BoolVar(&f.Chat, "chat", false, "interactive conversation (implies --hil)")
	fs.BoolVarP(&f.HIL, "hil", "H", false, "let the model ask you questions (ask_human)")
	fs.BoolVar(&f.NoExpert, "no-expert", false, "do not offer the expert tools")
	fs.BoolVar(&f.Cowboy, "cowboy-mode", false, "no approval prompts; the hard policy and sandbox still apply")
	fs.StringVar(&f.Sandbox, "sandbox", string(DefaultSandbox), "OS sandbox for shell commands: read-only, workspace-write, off")
	fs.BoolVar(&f.AllowNetwork, "allow-network", false, "let sandboxed shell commands use the network")
	fs.BoolVar(&f.UseAider, "use-aider", false, "edit through aider instead of the native file tools")
	fs.StringVar(&f.AiderConfig, "aider-config", "", "aider config file, passed to aider as --config")

	fs.StringVar(&f.TestCmd, "test-cmd", "", "command that tells whether the change works")
	fs.BoolVar(&f.AutoTest, "auto-test", false, "run --test-cmd after each task without asking")
	fs.IntVar(&f.MaxTestCmdRetries, "max-test-cmd-retries", DefaultMaxTestCmdRetries, "fix-and-retest rounds")
	fs.IntVar(&f.TestCmdTimeout, "test-cmd-timeout", int(DefaultTestCmdTimeout.Seconds()), "test command timeout in seconds")

	fs.IntVar(&f.RecursionLimit, "recursion-limit", DefaultRecursionLimit, "model turns per phase")
	fs.Float64Var(&f.MaxCost, "max-cost", 0, "cost budget in USD (default: none)")
	fs.IntVar(&f.MaxTokens, "max-tokens", 0, "token budget (default: none)")
	fs.BoolVar(&f.ExitAtLimit, "exit-at-limit", false, "on a budget hit, exit 4 instead of asking")
	fs.BoolVar(&f.ShowCost, "show-cost", false, "print tokens and cost")

	fs.StringVar(&f.CustomTools, "custom-tools", "", "manifest of custom tools (JSON or TOML)")
	fs.StringVar(&f.MCPConfig, "mcp-config", "", "MCP servers file (default: .reach/mcp.json if present)")
	fs.StringVar(&f.OutputFormat, "output-format", string(DefaultOutputFormat), "text, json (one object at the end) or stream-json (one event per line)")
	fs.StringVar(&f.ProjectStateDir, "project-state-dir", "./"+DefaultStateDir, "database, audit log, checkpoints and caches")
	fs.BoolVar(&f.WipeProjectMemory, "wipe-project-memory", false, "delete the project's memory before starting")
	fs.StringVar(&f.LogLevel, "log-level", "warn", "debug, info, warn or error; logs go to <project-state-dir>/logs/")
	fs.BoolVar(&f.NoTUI, "no-tui", false, "plain output even on a terminal")
	return f
}

// settings returns the flags the user gave on the command line.
func (f *Flags) settings(fs *pflag.FlagSet) settings {
	var s settings
	if f == nil || fs == nil {
		return s
	}
	str := func(name, v string) opt[string] {
		if fs.Changed(name) {
			return some(v)
		}
		return opt[string]{}
	}
	flag := func(name string, v bool) opt[bool] {
		if fs.Changed(name) {
			return some(v)
		}
		return opt[bool]{}
	}
	num := func(name string, v int) opt[int] {
		if fs.Changed(name) {
			return some(v)
		}
		return opt[int]{}
	}
	dec := func(name string, v float64) opt[float64] {
		if fs.Changed(name) {
			return some(v)
		}
		return opt[float64]{}
	}
	s.Message, s.MsgFile = str("message", f.Message), str("msg-file", f.MsgFile)
	s.Provider, s.Model, s.BaseURL = str("provider", f.Provider), str("model", f.Model), str("base-url", f.BaseURL)
	s.ExpertProvider, s.ExpertModel = str("expert-provider", f.ExpertProvider), str("expert-model", f.ExpertModel)
	s.ExpertBaseURL = str("expert-base-url", f.ExpertBaseURL)
	s.Temperature = dec("temperature", f.Temperature)
	s.ResearchOnly, s.ResearchAndPlanOnly = flag("research-only", f.ResearchOnly), flag("research-and-plan-only", f.ResearchAndPlanOnly)
	s.Chat, s.HIL, s.NoExpert = flag("chat", f.Chat), flag("hil", f.HIL), flag("no-expert", f.NoExpert)
	s.Cowboy, s.Sandbox, s.AllowNetwork = flag("cowboy-mode", f.Cowboy), str("sandbox", f.Sandbox), flag("allow-network", f.AllowNetwork)
	s.UseAider, s.AiderConfig = flag("use-aider", f.UseAider), str("aider-config", f.AiderConfig)
	s.TestCmd, s.AutoTest = str("test-cmd", f.TestCmd), flag("auto-test", f.AutoTest)
	s.MaxTestCmdRetries, s.TestCmdTimeout = num("max-test-cmd-retries", f.MaxTestCmdRetries), num("test-cmd-timeout", f.TestCmdTimeout)
	s.RecursionLimit, s.MaxCost, s.MaxTokens = num("recursion-limit", f.RecursionLimit), dec("max-cost", f.MaxCost), num("max-tokens", f.MaxTokens)
	s.ExitAtLimit, s.ShowCost = flag("exit-at-limit", f.ExitAtLimit), flag("show-cost", f.ShowCost)
	s.CustomTools, s.MCPConfig = str("custom-tools", f.CustomTools), str("mcp-config", f.MCPConfig)
	s.OutputFormat, s.ProjectStateDir = str("output-format", f.OutputFormat), str("project-state-dir", f.ProjectStateDir)
	s.WipeProjectMemory, s.LogLevel, s.NoTUI = flag("wipe-project-memory", f.WipeProjectMemory), str("log-level", f.LogLevel), flag("no-tui", f.NoTUI)
	return s
}
