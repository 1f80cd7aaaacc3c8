// Package config turns reach's flags, environment and config files into one
// validated Config value for a run.
//
// Precedence, highest first: flags given on the command line, the
// environment, the project file (<project-state-dir>/config.toml, by default
// .reach/config.toml), the user file (~/.config/reach/config.toml, honouring
// XDG_CONFIG_HOME), then the built-in defaults. Config file keys are the flag
// names with underscores (recursion_limit, base_url, expert_model, …) plus a
// [policy] table with allow, ask and deny lists of patterns.
//
// Rules worth knowing:
//   - model, base_url and api_key_env belong to the provider in effect where
//     they are set: a higher layer that switches --provider resets them to the
//     new provider's defaults (so `--provider ollama` never inherits
//     model = "gpt-4.1" from the user file). The same holds for the expert_*
//     values and the expert provider.
//   - Environment: OPENAI_API_KEY (or the provider's own variable, see
//     LookupProvider), OPENAI_BASE_URL then OPENAI_API_BASE for the openai and
//     openai-compatible providers, EXPERT_-prefixed variants of each for the
//     expert (EXPERT_OPENAI_API_KEY, EXPERT_OPENAI_BASE_URL, …), REACH_PROVIDER
//     and REACH_MODEL as conveniences for scripts and CI, TAVILY_API_KEY,
//     TAVILY_BASE_URL (tests and proxies) and AIDER_FLAGS.
//   - Per-run flags (-m, --msg-file, --chat, --research-only,
//     --research-and-plan-only, --wipe-project-memory) cannot be set in files.
//   - A project file comes with the repository, so it may not relax safety:
//     cowboy_mode, allow_network and sandbox = "off" are refused there.
//   - [policy] lists from the user and project files are concatenated.
//   - Paths (msg-file, aider-config, custom-tools, mcp-config,
//     project-state-dir) are made absolute against Paths.ProjectDir.
//
// Every error Load returns is a *UsageError (exit code 2).
package config

import (
	"log/slog"
	"strings"
	"time"
)

// Sandbox is the OS sandbox mode for shell commands.
type Sandbox string

// Sandbox modes accepted by --sandbox.
const (
	SandboxReadOnly       Sandbox = "read-only"
	SandboxWorkspaceWrite Sandbox = "workspace-write"
	SandboxOff            Sandbox = "off"
)

// OutputFormat is what reach prints for a non-interactive reader.
type OutputFormat string

// Output formats accepted by --output-format.
const (
	OutputText       OutputFormat = "text"
	OutputJSON       OutputFormat = "json"
	OutputStreamJSON OutputFormat = "stream-json"
)

// Defaults of SPEC §1.
const (
	DefaultProvider          = "openai"
	DefaultSandbox           = SandboxWorkspaceWrite
	DefaultOutputFormat      = OutputText
	DefaultStateDir          = ".reach"
	DefaultMaxTestCmdRetries = 3
	DefaultTestCmdTimeout    = 300 * time.Second
	DefaultRecursionLimit    = 100
	DefaultLogLevel          = slog.LevelWarn
)

// Secret is a credential. It prints as a redacted marker so a Config can be
// logged or dumped with %v without leaking keys; Value returns the key.
type Secret string

// Value returns the secret itself.
func (s Secret) Value() string { return string(s) }

// String returns "<set>" or "<unset>", never the secret.
func (s Secret) String() string {
	if s == "" {
		return "<unset>"
	}
	return "<set>"
}

// GoString is String, so %#v does not leak the secret either.
func (s Secret) GoString() string { return s.String() }

// MarshalText is String, so encoders do not leak the secret either.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Endpoint is one model to talk to: who serves it, where, and with which key.
type Endpoint struct {
	Provider string
	Model    string
	BaseURL  string
	APIKey   Secret
	// APIKeyEnv is the environment variable the key came from or, when the
	// key is missing, the one the user should set. Empty for providers that
	// need no key (ollama).
	APIKeyEnv string
}

// Policy holds the user's shell policy patterns ([policy] in config files).
// Deny wins over ask, ask over allow; the policy package interprets them.
type Policy struct {
	Allow []string
	Ask   []string
	Deny  []string
}

// Config is everything one run of reach needs to know, validated.
type Config struct {
	// Message is the task given with -m; MsgFile the file given with
	// --msg-file (absolute). Use Task for the task text.
	Message string
	MsgFile string
	msgText string

	Endpoint             // the main model: Provider, Model, BaseURL, APIKey, APIKeyEnv
	Expert      Endpoint // the expert model; falls back to the main one
	Temperature *float64 // nil: the model's default

	ResearchOnly        bool
	ResearchAndPlanOnly bool
	Chat                bool // implies HIL
	HIL                 bool
	NoExpert            bool
	Cowboy              bool
	Sandbox             Sandbox
	AllowNetwork        bool

	UseAider    bool
	AiderConfig string
	AiderFlags  []string // from AIDER_FLAGS, already split into arguments

	TestCmd           string
	AutoTest          bool
	MaxTestCmdRetries int
	TestCmdTimeout    time.Duration

	RecursionLimit int
	MaxCost        *float64 // USD; nil: no budget
	MaxTokens      *int     // nil: no budget
	ExitAtLimit    bool
	ShowCost       bool

	CustomTools  string
	MCPConfig    string // explicit, or <state dir>/mcp.json when it exists
	TavilyAPIKey Secret
	// TavilyBaseURL overrides the Tavily API root (env TAVILY_BASE_URL),
	// for tests and proxies; "" means the public API.
	TavilyBaseURL string
	// EmbeddingModel (env REACH_EMBEDDING_MODEL) turns on embedding scores
	// in tool retrieval, from the main endpoint's /embeddings; "" is off.
	EmbeddingModel string

	OutputFormat      OutputFormat
	ProjectStateDir   string // absolute
	WipeProjectMemory bool
	LogLevel          slog.Level
	NoTUI             bool

	Policy Policy
	// Models corrects the built-in model table: context windows and prices
	// by model name ([models."name"] in config files; later files win).
	Models map[string]ModelOverride

	// Files lists the config files that were read, lowest precedence first.
	Files []string
}

// Task returns the task text: the -m message or the content of --msg-file.
func (c *Config) Task() string {
	if c.MsgFile != "" {
		return c.msgText
	}
	return c.Message
}

// RequireTask reports a usage error when the run needs a task and has none.
// Chat mode needs none: the conversation starts from the user's first line.
func (c *Config) RequireTask() error {
	if c.Chat || strings.TrimSpace(c.Task()) != "" {
		return nil
	}
	return &UsageError{Flag: "--message", Msg: `no task: give one with -m "..." or --msg-file PATH`}
}
