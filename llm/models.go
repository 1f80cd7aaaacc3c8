package llm

import (
	"regexp"
	"strings"
	"sync"
)

// DefaultContextWindow is assumed for models reach does not know.
const DefaultContextWindow = 128_000

// ModelInfo is what reach knows about a model: its context window and its
// list prices in US dollars per million tokens.
type ModelInfo struct {
	Name          string
	ContextWindow int
	InputPerMTok  float64
	OutputPerMTok float64
}

// knownModels holds list prices as published by the providers in 2025.
// It is read-only.
var knownModels = map[string]ModelInfo{
	"gpt-4o":            {ContextWindow: 128_000, InputPerMTok: 2.50, OutputPerMTok: 10},
	"gpt-4o-mini":       {ContextWindow: 128_000, InputPerMTok: 0.15, OutputPerMTok: 0.60},
	"gpt-4.1":           {ContextWindow: 1_047_576, InputPerMTok: 2, OutputPerMTok: 8},
	"gpt-4.1-mini":      {ContextWindow: 1_047_576, InputPerMTok: 0.40, OutputPerMTok: 1.60},
	"gpt-4.1-nano":      {ContextWindow: 1_047_576, InputPerMTok: 0.10, OutputPerMTok: 0.40},
	"gpt-5":             {ContextWindow: 400_000, InputPerMTok: 1.25, OutputPerMTok: 10},
	"gpt-5-mini":        {ContextWindow: 400_000, InputPerMTok: 0.25, OutputPerMTok: 2},
	"gpt-5-nano":        {ContextWindow: 400_000, InputPerMTok: 0.05, OutputPerMTok: 0.40},
	"o1":                {ContextWindow: 200_000, InputPerMTok: 15, OutputPerMTok: 60},
	"o3":                {ContextWindow: 200_000, InputPerMTok: 2, OutputPerMTok: 8},
	"o3-mini":           {ContextWindow: 200_000, InputPerMTok: 1.10, OutputPerMTok: 4.40},
	"o4-mini":           {ContextWindow: 200_000, InputPerMTok: 1.10, OutputPerMTok: 4.40},
	"deepseek-chat":     {ContextWindow: 128_000, InputPerMTok: 0.27, OutputPerMTok: 1.10},
	"deepseek-reasoner": {ContextWindow: 128_000, InputPerMTok: 0.55, OutputPerMTok: 2.19},
	"claude-sonnet-4-5": {ContextWindow: 200_000, InputPerMTok: 3, OutputPerMTok: 15},
	"claude-sonnet-4":   {ContextWindow: 200_000, InputPerMTok: 3, OutputPerMTok: 15},
	"claude-3-7-sonnet": {ContextWindow: 200_000, InputPerMTok: 3, OutputPerMTok: 15},
	"claude-opus-4-1":   {ContextWindow: 200_000, InputPerMTok: 15, OutputPerMTok: 75},
	"claude-opus-4":     {ContextWindow: 200_000, InputPerMTok: 15, OutputPerMTok: 75},
	"claude-haiku-4-5":  {ContextWindow: 200_000, InputPerMTok: 1, OutputPerMTok: 5},
	"claude-3-5-haiku":  {ContextWindow: 200_000, InputPerMTok: 0.80, OutputPerMTok: 4},
	"gemini-2.5-pro":    {ContextWindow: 1_048_576, InputPerMTok: 1.25, OutputPerMTok: 10},
	"gemini-2.5-flash":  {ContextWindow: 1_048_576, InputPerMTok: 0.30, OutputPerMTok: 2.50},
}

// modelAliases maps other spellings (OpenRouter's dotted Claude names,
// "-latest" aliases) to the table's names.
var modelAliases = map[string]string{
	"claude-sonnet-4.5":        "claude-sonnet-4-5",
	"claude-opus-4.1":          "claude-opus-4-1",
	"claude-haiku-4.5":         "claude-haiku-4-5",
	"claude-3.7-sonnet":        "claude-3-7-sonnet",
	"claude-3.5-haiku":         "claude-3-5-haiku",
	"claude-3-7-sonnet-latest": "claude-3-7-sonnet",
	"claude-3-5-haiku-latest":  "claude-3-5-haiku",
	"chatgpt-4o-latest":        "gpt-4o",
}

// dateSuffix matches the snapshot dates of model names: -2024-08-06, -20250929.
var dateSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-(\d{4}-\d{2}-\d{2}|\d{8})$`) })

// LookupModel finds a model by name, ignoring case, a provider prefix
// ("openai/gpt-4o"), a snapshot date ("gpt-4o-2024-08-06") and a tag
// (":latest"; OpenRouter's ":free" variants cost nothing). An unknown model
// gets ok false and a ModelInfo with DefaultContextWindow and zero prices.
func LookupModel(name string) (info ModelInfo, ok bool) {
	key := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndex(key, "/"); i >= 0 {
		key = key[i+1:]
	}
	free := false
	if i := strings.Index(key, ":"); i >= 0 {
		free = key[i+1:] == "free"
		key = key[:i]
	}
	for _, k := range []string{key, dateSuffix().ReplaceAllString(key, "")} {
		if alias, found := modelAliases[k]; found {
			k = alias
		}
		if info, ok = knownModels[k]; ok {
			break
		}
	}
	if !ok {
		return ModelInfo{Name: name, ContextWindow: DefaultContextWindow}, false
	}
	info.Name = name
	if free {
		info.InputPerMTok, info.OutputPerMTok = 0, 0
	}
	return info, true
}

// Cost is the price in US dollars of the usage at the model's rates.
func (u Usage) Cost(m ModelInfo) float64 {
	return (float64(u.PromptTokens)*m.InputPerMTok + float64(u.CompletionTokens)*m.OutputPerMTok) / 1e6
}
