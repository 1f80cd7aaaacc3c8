package config

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// opt is a value that a layer (flags, environment, one file) may or may not
// set. It decodes itself from TOML so that a wrong type is reported by the
// TOML library with the key and its line.
type opt[T any] struct {
	V   T
	Set bool
}

func some[T any](v T) opt[T] { return opt[T]{V: v, Set: true} }

// UnmarshalTOML implements toml.Unmarshaler.
func (o *opt[T]) UnmarshalTOML(data any) error {
	switch p := any(&o.V).(type) {
	case *string:
		s, ok := data.(string)
		if !ok {
			return typeError("a string in quotes, such as \"value\"", data)
		}
		*p = s
	case *bool:
		b, ok := data.(bool)
		if !ok {
			return typeError("true or false (no quotes)", data)
		}
		*p = b
	case *int:
		n, ok := data.(int64)
		if !ok || n > math.MaxInt32 || n < math.MinInt32 {
			return typeError("a whole number (no quotes), such as 3", data)
		}
		*p = int(n)
	case *float64:
		switch n := data.(type) {
		case float64:
			*p = n
		case int64:
			*p = float64(n)
		default:
			return typeError("a number (no quotes), such as 0.5", data)
		}
	case *[]string:
		list, ok := data.([]any)
		if !ok {
			return typeError(`a list of strings, such as ["git status", "go test *"]`, data)
		}
		out := make([]string, 0, len(list))
		for i, item := range list {
			s, ok := item.(string)
			if !ok {
				return fmt.Errorf("item %d must be a string in quotes (got %s)", i+1, describe(item))
			}
			out = append(out, s)
		}
		*p = out
	default:
		return fmt.Errorf("cannot decode into %T", o.V)
	}
	o.Set = true
	return nil
}

func typeError(want string, got any) error {
	return fmt.Errorf("must be %s (got %s)", want, describe(got))
}

// describe names a decoded TOML value for an error message.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", v)
	case int64:
		return fmt.Sprintf("the integer %d", v)
	case float64:
		return fmt.Sprintf("the number %g", v)
	case bool:
		return fmt.Sprintf("the boolean %t", v)
	case time.Time:
		return "a date"
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// settings is what one layer says. The toml tags are the config file keys;
// fields tagged "-" are per-run flags that files may not set.
type settings struct {
	Message             opt[string] `toml:"-"`
	MsgFile             opt[string] `toml:"-"`
	ResearchOnly        opt[bool]   `toml:"-"`
	ResearchAndPlanOnly opt[bool]   `toml:"-"`
	Chat                opt[bool]   `toml:"-"`
	WipeProjectMemory   opt[bool]   `toml:"-"`

	Provider        opt[string]  `toml:"provider"`
	Model           opt[string]  `toml:"model"`
	BaseURL         opt[string]  `toml:"base_url"`
	APIKeyEnv       opt[string]  `toml:"api_key_env"`
	ExpertProvider  opt[string]  `toml:"expert_provider"`
	ExpertModel     opt[string]  `toml:"expert_model"`
	ExpertBaseURL   opt[string]  `toml:"expert_base_url"`
	ExpertAPIKeyEnv opt[string]  `toml:"expert_api_key_env"`
	Temperature     opt[float64] `toml:"temperature"`

	HIL          opt[bool]   `toml:"hil"`
	NoExpert     opt[bool]   `toml:"no_expert"`
	Cowboy       opt[bool]   `toml:"cowboy_mode"`
	Sandbox      opt[string] `toml:"sandbox"`
	AllowNetwork opt[bool]   `toml:"allow_network"`
	UseAider     opt[bool]   `toml:"use_aider"`
	AiderConfig  opt[string] `toml:"aider_config"`

	TestCmd           opt[string] `toml:"test_cmd"`
	AutoTest          opt[bool]   `toml:"auto_test"`
	MaxTestCmdRetries opt[int]    `toml:"max_test_cmd_retries"`
	TestCmdTimeout    opt[int]    `toml:"test_cmd_timeout"`

	RecursionLimit opt[int]     `toml:"recursion_limit"`
	MaxCost        opt[float64] `toml:"max_cost"`
	MaxTokens      opt[int]     `toml:"max_tokens"`
	ExitAtLimit    opt[bool]    `toml:"exit_at_limit"`
	ShowCost       opt[bool]    `toml:"show_cost"`

	CustomTools     opt[string] `toml:"custom_tools"`
	MCPConfig       opt[string] `toml:"mcp_config"`
	OutputFormat    opt[string] `toml:"output_format"`
	ProjectStateDir opt[string] `toml:"project_state_dir"`
	LogLevel        opt[string] `toml:"log_level"`
	NoTUI           opt[bool]   `toml:"no_tui"`

	Policy policySettings `toml:"policy"`
	Models modelsSettings `toml:"models"`
}

// perRunKeys are flags that make sense for one run only, by file key.
func perRunKeys() map[string]string {
	return map[string]string{
		"message":                "-m",
		"msg_file":               "--msg-file",
		"research_only":          "--research-only",
		"research_and_plan_only": "--research-and-plan-only",
		"chat":                   "--chat",
		"wipe_project_memory":    "--wipe-project-memory",
	}
}

// policySettings is the [policy] table.
type policySettings struct {
	Allow opt[[]string]
	Ask   opt[[]string]
	Deny  opt[[]string]
}

// UnmarshalTOML implements toml.Unmarshaler so that a bad [policy] table is
// reported with its line.
func (p *policySettings) UnmarshalTOML(data any) error {
	table, ok := data.(map[string]any)
	if !ok {
		return typeError(`a table: write [policy] on its own line, then allow = ["..."]`, data)
	}
	keys := make([]string, 0, len(table))
	for key := range table {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		var dst *opt[[]string]
		switch key {
		case "allow":
			dst = &p.Allow
		case "ask":
			dst = &p.Ask
		case "deny":
			dst = &p.Deny
		default:
			return fmt.Errorf("has an unknown key %q: the keys of [policy] are allow, ask and deny", key)
		}
		if err := dst.UnmarshalTOML(table[key]); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	return nil
}

// parseAiderFlags splits AIDER_FLAGS the way RA.Aid does: comma-separated
// flags, surrounding spaces trimmed, empty entries dropped, a leading "--"
// added when missing, and "flag value" entries split into two arguments.
func parseAiderFlags(s string) []string {
	var out []string
	for _, entry := range strings.Split(s, ",") {
		parts := strings.Fields(entry)
		if len(parts) == 0 {
			continue
		}
		parts[0] = "--" + strings.TrimLeft(parts[0], "-")
		out = append(out, parts...)
	}
	return out
}
