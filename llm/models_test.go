package llm_test

import (
	"math"
	"testing"

	"github.com/reach-agent/reach/llm"
)

func TestLookupModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		wantOK     bool
		wantWindow int
		wantIn     float64
		wantOut    float64
	}{
		{"gpt-4o", true, 128_000, 2.50, 10},
		{"gpt-4o-mini", true, 128_000, 0.15, 0.60},
		{"openai/gpt-4.1", true, 1_047_576, 2, 8},
		{"GPT-4.1-mini", true, 1_047_576, 0.40, 1.60},
		{"gpt-4o-2024-08-06", true, 128_000, 2.50, 10},
		{"o3", true, 200_000, 2, 8},
		{"o4-mini", true, 200_000, 1.10, 4.40},
		{"deepseek/deepseek-chat", true, 128_000, 0.27, 1.10},
		{"claude-sonnet-4-5-20250929", true, 200_000, 3, 15},
		{"anthropic/claude-sonnet-4.5", true, 200_000, 3, 15},
		{"deepseek/deepseek-chat:free", true, 128_000, 0, 0},
		{"llama3.1:8b", false, llm.DefaultContextWindow, 0, 0},
		{"", false, llm.DefaultContextWindow, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			info, ok := llm.LookupModel(tt.name)
			if ok != tt.wantOK || info.ContextWindow != tt.wantWindow || info.InputPerMTok != tt.wantIn || info.OutputPerMTok != tt.wantOut {
				t.Errorf("LookupModel(%q) = %+v, %v; want window %d, $%v/$%v, ok %v", tt.name, info, ok, tt.wantWindow, tt.wantIn, tt.wantOut, tt.wantOK)
			}
			if info.Name != tt.name {
				t.Errorf("Name = %q, want the name asked for", info.Name)
			}
		})
	}
}

func TestUsageCost(t *testing.T) {
	t.Parallel()
	gpt4o, _ := llm.LookupModel("gpt-4o")
	unknown, _ := llm.LookupModel("my-local-model")
	tests := []struct {
		name  string
		usage llm.Usage
		model llm.ModelInfo
		want  float64
	}{
		{"a million in and out", llm.Usage{PromptTokens: 1_000_000, CompletionTokens: 1_000_000}, gpt4o, 12.50},
		{"a small turn", llm.Usage{PromptTokens: 12_000, CompletionTokens: 800}, gpt4o, 0.03 + 0.008},
		{"nothing", llm.Usage{}, gpt4o, 0},
		{"unknown model is free", llm.Usage{PromptTokens: 5000, CompletionTokens: 5000}, unknown, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.usage.Cost(tt.model); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Cost = %v, want %v", got, tt.want)
			}
		})
	}
}
