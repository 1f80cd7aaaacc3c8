package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/llm/llmtest"
)

// BenchmarkStreamLargeToolCall streams one put_complete_file_contents call
// whose 64 KiB of arguments arrive in 16-byte deltas (~4100 events), over
// real HTTP, and reassembles it.
func BenchmarkStreamLargeToolCall(b *testing.B) {
	args := `{"filepath":"big.go","complete_file_contents":"` + strings.Repeat("x", 64<<10) + `"}`
	turn := llmtest.Turn{ToolCalls: []llm.ToolCall{{ID: "c", Name: "put_complete_file_contents", Arguments: args}}, ChunkSize: 16}
	srv := llmtest.NewServer(b)
	client, _ := newClient(srv.URL(), true)
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		srv.Append(turn)
		resp, err := client.Complete(context.Background(), userRequest("write it"), nil)
		if err != nil || resp.Message.ToolCalls[0].Arguments != args {
			b.Fatalf("Complete: %v", err)
		}
	}
}
