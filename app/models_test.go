package app

import (
	"testing"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/llm"
)

func TestModelInfo(t *testing.T) {
	t.Parallel()
	window, in, out := 50000, 1.0, 4.0
	cfg := &config.Config{Models: map[string]config.ModelOverride{
		"gpt-4.1":  {ContextWindow: &window},
		"my-local": {InputPerMTok: &in, OutputPerMTok: &out},
	}}
	builtin, _ := llm.LookupModel("gpt-4.1")
	tests := []struct {
		model     string
		wantKnown bool
		window    int
		input     float64
	}{
		{"gpt-4.1", true, 50000, builtin.InputPerMTok},
		{"my-local", true, llm.DefaultContextWindow, 1.0},
		{"mystery", false, llm.DefaultContextWindow, 0},
	}
	for _, tc := range tests {
		t.Run(tc.model, func(t *testing.T) {
			t.Parallel()
			info, known := modelInfo(cfg, tc.model)
			if known != tc.wantKnown || info.ContextWindow != tc.window || info.InputPerMTok != tc.input {
				t.Fatalf("got %+v known=%v", info, known)
			}
		})
	}
	if c := (llm.Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000}).Cost(func() llm.ModelInfo { i, _ := modelInfo(cfg, "my-local"); return i }()); c != 3.0 {
		t.Fatalf("cost %v, want 3.0", c)
	}
}
