package config

import (
	"fmt"
	"strings"
)

// Provider describes a model provider reach can talk to through an
// OpenAI-compatible API.
type Provider struct {
	Name           string
	DefaultBaseURL string // "" when the user must give one (openai-compatible)
	DefaultModel   string // "" when the server decides (openai-compatible)
	KeyEnv         string // the variable holding its API key; "" when none is used
	KeyRequired    bool   // false for local servers, which often take no key
}

// Provider names accepted by --provider and --expert-provider.
const (
	ProviderOpenAI           = "openai"
	ProviderOpenAICompatible = "openai-compatible"
	ProviderOpenRouter       = "openrouter"
	ProviderOllama           = "ollama"
	ProviderDeepSeek         = "deepseek"
	ProviderAnthropic        = "anthropic"
)

// Providers returns every supported provider, in the order of SPEC §1.
func Providers() []Provider {
	return []Provider{
		{Name: ProviderOpenAI, DefaultBaseURL: "https://api.openai.com/v1", DefaultModel: "gpt-4.1",
			KeyEnv: "OPENAI_API_KEY", KeyRequired: true},
		{Name: ProviderOpenAICompatible, KeyEnv: "OPENAI_API_KEY"},
		{Name: ProviderOpenRouter, DefaultBaseURL: "https://openrouter.ai/api/v1", DefaultModel: "openai/gpt-4.1",
			KeyEnv: "OPENROUTER_API_KEY", KeyRequired: true},
		{Name: ProviderOllama, DefaultBaseURL: "http://localhost:11434/v1", DefaultModel: "qwen2.5-coder"},
		{Name: ProviderDeepSeek, DefaultBaseURL: "https://api.deepseek.com/v1", DefaultModel: "deepseek-chat",
			KeyEnv: "DEEPSEEK_API_KEY", KeyRequired: true},
		{Name: ProviderAnthropic, DefaultBaseURL: "https://api.anthropic.com/v1/", DefaultModel: "claude-sonnet-4-5",
			KeyEnv: "ANTHROPIC_API_KEY", KeyRequired: true},
	}
}

// LookupProvider returns the provider of that name.
func LookupProvider(name string) (Provider, bool) {
	for _, p := range Providers() {
		if p.Name == name {
			return p, true
		}
	}
	return Provider{}, false
}

func providerNames() string {
	ps := Providers()
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// openAIFamily reports whether OPENAI_BASE_URL and OPENAI_API_BASE apply.
func openAIFamily(provider string) bool {
	return provider == ProviderOpenAI || provider == ProviderOpenAICompatible
}

// keyRequired reports whether e cannot work without a key. The openai
// provider pointed at another server (a local llama.cpp, vLLM…) is treated
// like openai-compatible.
func keyRequired(e Endpoint) bool {
	p, ok := LookupProvider(e.Provider)
	if !ok || !p.KeyRequired {
		return false
	}
	if e.Provider == ProviderOpenAI && strings.TrimRight(e.BaseURL, "/") != strings.TrimRight(p.DefaultBaseURL, "/") {
		return false
	}
	return true
}

// CheckCredentials reports a usage error naming the variable to set when the
// main model, or the expert unless --no-expert, needs an API key and has none.
// Commands that never call a model do not call it.
func (c *Config) CheckCredentials() error {
	if c.APIKey == "" && keyRequired(c.Endpoint) {
		return &UsageError{Flag: c.APIKeyEnv, Msg: missingKeyMsg(c.APIKeyEnv, c.Provider)}
	}
	if c.NoExpert || c.Expert.APIKey != "" || !keyRequired(c.Expert) {
		return nil
	}
	v := c.Expert.APIKeyEnv
	return &UsageError{Flag: v, Msg: fmt.Sprintf(
		"%s is not set, and the expert (--expert-provider %s) needs it: export it, or pass --no-expert",
		v, c.Expert.Provider)}
}

func missingKeyMsg(env, provider string) string {
	if provider == ProviderOpenAI {
		return env + " is not set: export it, or pass --provider ollama / --base-url for a local server"
	}
	return fmt.Sprintf("%s is not set: export it (the key for --provider %s), or choose another --provider", env, provider)
}
