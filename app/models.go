package app

import (
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/llm"
)

// modelInfo is the built-in entry for model corrected by the config's
// [models."name"] table. known is false when neither knows the model: its
// cost is then reported as 0 and its window is llm's safe default.
func modelInfo(cfg *config.Config, model string) (info llm.ModelInfo, known bool) {
	info, known = llm.LookupModel(model)
	o, ok := cfg.Models[model]
	if !ok {
		return info, known
	}
	if o.ContextWindow != nil {
		info.ContextWindow = *o.ContextWindow
	}
	if o.InputPerMTok != nil {
		info.InputPerMTok = *o.InputPerMTok
	}
	if o.OutputPerMTok != nil {
		info.OutputPerMTok = *o.OutputPerMTok
	}
	return info, known || o.InputPerMTok != nil || o.OutputPerMTok != nil
}
