package agent

import (
	"context"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/tools"
)

// ToolOffer picks the tools offered at each model turn from everything a
// phase offers — tool retrieval when there are too many to send them all.
// The tools/toolsearch package implements it.
type ToolOffer interface {
	Offer(ctx context.Context, t OfferTurn) []tools.Spec
}

// OfferTurn is what a ToolOffer knows about the coming model turn.
type OfferTurn struct {
	Phase    string
	Turn     int           // 1 for the first turn of a Loop.Run
	Messages []llm.Message // the conversation so far
	Tools    []tools.Spec  // every tool the phase offers
	LastUsed []string      // tools called in the previous turn of this Run
}
