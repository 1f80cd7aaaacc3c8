package toolsearch

import (
	"context"
	"testing"
)

// BenchmarkFirstOffer309 is the extra latency of a run's first model
// request with 300 MCP-like tools: building the index and ranking.
func BenchmarkFirstOffer309(b *testing.B) {
	all := specsOf(append(builtins(9), fakeTools(300, nil)...))
	t := turn("research", 1, "create a GitHub issue about the failing build", all)
	for b.Loop() {
		New(Options{}).Offer(context.Background(), t)
	}
}

// BenchmarkLaterOffer309 is the cost of each later turn of the same
// conversation (the stable offer is reused).
func BenchmarkLaterOffer309(b *testing.B) {
	all := specsOf(append(builtins(9), fakeTools(300, nil)...))
	o := New(Options{})
	ctx := context.Background()
	o.Offer(ctx, turn("research", 1, "create a GitHub issue about the failing build", all))
	t := turn("research", 2, "create a GitHub issue about the failing build", all)
	for b.Loop() {
		o.Offer(ctx, t)
	}
}

// BenchmarkToolSearch309 is one tool_search call over the held-back tools.
func BenchmarkToolSearch309(b *testing.B) {
	all := specsOf(append(builtins(9), fakeTools(300, nil)...))
	o := New(Options{})
	ctx := context.Background()
	o.Offer(ctx, turn("research", 1, "create a GitHub issue about the failing build", all))
	for b.Loop() {
		o.Search(ctx, "refund a stripe payment")
	}
}
