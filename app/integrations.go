package app

import (
	"context"
	"fmt"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/aider"
	"github.com/reach-agent/reach/tools/websearch"
)

// Integrate registers the tools that depend on the configuration:
// run_programming_task with --use-aider (the implementation phase then
// offers it instead of the native edit tools, see phases.Toolset) and
// web_search_tavily when TAVILY_API_KEY is set.
func (tb *Toolbox) Integrate(cfg *config.Config) error {
	var extra []tools.Tool
	if cfg.UseAider {
		extra = append(extra, aider.Tool(tb.Root, tb.Aider, aiderOptions(cfg, tb)))
	}
	if key := cfg.TavilyAPIKey.Value(); key != "" {
		extra = append(extra, websearch.Tool(websearch.Options{APIKey: key, BaseURL: cfg.TavilyBaseURL}))
	}
	if err := tb.Registry.RegisterTrusted(extra...); err != nil {
		return fmt.Errorf("register integrations: %w", err)
	}
	return nil
}

// aiderOptions are the aider settings of cfg. Related files come from the
// toolbox's memory when it keeps them (emit_related_files).
func aiderOptions(cfg *config.Config, tb *Toolbox) aider.Options {
	opts := aider.Options{ConfigFile: cfg.AiderConfig, Flags: cfg.AiderFlags}
	if rf, ok := any(tb.Memory).(relatedFiles); ok {
		opts.RelatedFiles = rf.RelatedFiles
	}
	return opts
}

// relatedFiles is what a memory that keeps emit_related_files offers.
type relatedFiles interface {
	RelatedFiles(ctx context.Context) []string
}
