package llm_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/llm/llmtest"
)

// sleepRecorder is a fake clock: it records the waits asked for and
// returns at once.
type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepRecorder) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepRecorder) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// newClient returns a client for baseURL whose retries sleep on a fake
// clock and use the full backoff ceiling (no randomness).
func newClient(baseURL string, stream bool, mods ...func(*llm.OpenAIConfig)) (*llm.OpenAI, *sleepRecorder) {
	rec := &sleepRecorder{}
	cfg := llm.OpenAIConfig{
		BaseURL: baseURL, APIKey: "sk-test", Provider: "openai", KeyEnv: "OPENAI_API_KEY", Stream: stream,
		Retry: llm.RetryPolicy{Sleep: rec.Sleep, Jitter: func(d time.Duration) time.Duration { return d }},
	}
	for _, m := range mods {
		m(&cfg)
	}
	return llm.NewOpenAI(cfg), rec
}

func userRequest(text string) llm.Request {
	return llm.Request{Model: "gpt-4o-mini", Messages: []llm.Message{{Role: llm.User, Content: text}}}
}

func TestCompleteReplies(t *testing.T) {
	t.Parallel()
	twoCalls := []llm.ToolCall{
		llmtest.Call("call_a", "read_file_tool", `{"filepath":"main.go","offset":10,"limit":20}`),
		llmtest.Call("call_b", "ripgrep_search", `{"pattern":"func (c \\*Client)","fixed_string":false,"include_paths":["llm/","cmd/"]}`),
	}
	tests := []struct {
		name       string
		turn       llmtest.Turn
		wantText   string
		wantCalls  []llm.ToolCall
		wantFinish string
	}{
		{name: "text", turn: llmtest.Turn{Text: "Hello, world. The answer is 42.", ChunkSize: 4}, wantText: "Hello, world. The answer is 42.", wantFinish: "stop"},
		{name: "unicode text in one-byte chunks", turn: llmtest.Turn{Text: "héllo → 世界 ✓", ChunkSize: 1}, wantText: "héllo → 世界 ✓", wantFinish: "stop"},
		{name: "two tool calls in one-byte chunks", turn: llmtest.Turn{ToolCalls: twoCalls, ChunkSize: 1}, wantCalls: twoCalls, wantFinish: "tool_calls"},
		{name: "two tool calls without index", turn: llmtest.Turn{ToolCalls: twoCalls, ChunkSize: 3, OmitIndex: true}, wantCalls: twoCalls, wantFinish: "tool_calls"},
		{name: "text and a tool call", turn: llmtest.Turn{Text: "Let me look.", ToolCalls: twoCalls[:1], ChunkSize: 5}, wantText: "Let me look.", wantCalls: twoCalls[:1], wantFinish: "tool_calls"},
		{name: "finish reason length", turn: llmtest.Turn{Text: "cut", FinishReason: "length"}, wantText: "cut", wantFinish: "length"},
	}
	for _, tt := range tests {
		for _, stream := range []bool{true, false} {
			name := tt.name + map[bool]string{true: "/stream", false: "/plain"}[stream]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				turn := tt.turn
				turn.Usage = llm.Usage{PromptTokens: 120, CompletionTokens: 34}
				srv := llmtest.NewServer(t, turn)
				client, rec := newClient(srv.URL(), stream)
				var deltas []string
				resp, err := client.Complete(context.Background(), userRequest("hi"), func(d string) { deltas = append(deltas, d) })
				if err != nil {
					t.Fatalf("Complete: %v", err)
				}
				if resp.Message.Role != llm.Assistant || resp.Message.Content != tt.wantText {
					t.Errorf("message = %q %q, want assistant %q", resp.Message.Role, resp.Message.Content, tt.wantText)
				}
				if !equalCalls(resp.Message.ToolCalls, tt.wantCalls) {
					t.Errorf("tool calls = %+v, want %+v", resp.Message.ToolCalls, tt.wantCalls)
				}
				if resp.FinishReason != tt.wantFinish {
					t.Errorf("finish = %q, want %q", resp.FinishReason, tt.wantFinish)
				}
				if want := (llm.Usage{PromptTokens: 120, CompletionTokens: 34}); resp.Usage != want {
					t.Errorf("usage = %+v, want %+v", resp.Usage, want)
				}
				if resp.Requests != 1 || len(rec.Waits()) != 0 {
					t.Errorf("requests = %d, waits = %v; want 1 request, no wait", resp.Requests, rec.Waits())
				}
				got := strings.Join(deltas, "")
				switch {
				case stream && got != tt.wantText:
					t.Errorf("streamed text = %q, want %q", got, tt.wantText)
				case stream && tt.turn.ChunkSize > 0 && len(tt.wantText) > tt.turn.ChunkSize && len(deltas) < 2:
					t.Errorf("text arrived in %d delta(s), want it streamed in pieces", len(deltas))
				case !stream && len(deltas) != 0:
					t.Errorf("non-streaming call sent deltas %q", deltas)
				}
				reqs := srv.Requests()
				if len(reqs) != 1 || reqs[0].Stream != stream || reqs[0].IncludeUsage != stream {
					t.Fatalf("server saw %+v, want one request with stream=%v and include_usage=%v", reqs, stream, stream)
				}
			})
		}
	}
}

func equalCalls(a, b []llm.ToolCall) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCompleteSendsRequest(t *testing.T) {
	t.Parallel()
	zero, warm := float32(0), float32(0.7)
	history := []llm.Message{
		{Role: llm.System, Content: "You are reach."},
		{Role: llm.User, Content: "Fix the bug."},
		{Role: llm.Assistant, ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "read_file_tool", Arguments: `{"filepath":"a.go"}`}}},
		{Role: llm.ToolRole, ToolCallID: "call_1", Content: `{"success":true,"output":"package a"}`},
	}
	tools := []llm.ToolDef{
		{Name: "read_file_tool", Description: "Read a file.", Parameters: []byte(`{"type":"object","properties":{"filepath":{"type":"string"}},"required":["filepath"]}`)},
		{Name: "emit_key_facts", Description: "Store facts."}, // no schema: an empty object schema is sent
	}
	tests := []struct {
		name     string
		temp     *float32
		wantTemp float64 // -1 for absent
	}{
		{name: "no temperature", temp: nil, wantTemp: -1},
		{name: "temperature zero is sent", temp: &zero, wantTemp: 0},
		{name: "temperature 0.7", temp: &warm, wantTemp: 0.7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t, llmtest.Reply("done"))
			client, _ := newClient(srv.URL(), true, func(c *llm.OpenAIConfig) {
				c.Headers = map[string]string{"X-Title": "reach"}
			})
			req := llm.Request{Model: "openai/gpt-4.1", Messages: history, Tools: tools, Temperature: tt.temp}
			if _, err := client.Complete(context.Background(), req, nil); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			got := srv.Requests()[0]
			if got.Model != "openai/gpt-4.1" {
				t.Errorf("model = %q", got.Model)
			}
			if len(got.Messages) != len(history) {
				t.Fatalf("messages = %+v, want %d", got.Messages, len(history))
			}
			for i, m := range history {
				g := got.Messages[i]
				if g.Role != m.Role || g.Content != m.Content || g.ToolCallID != m.ToolCallID || !equalCalls(g.ToolCalls, m.ToolCalls) {
					t.Errorf("message %d = %+v, want %+v", i, g, m)
				}
			}
			if strings.Join(got.Tools, ",") != "read_file_tool,emit_key_facts" {
				t.Errorf("tools = %v", got.Tools)
			}
			if !strings.Contains(string(got.Body), `"parameters":{"type":"object","properties":{}}`) {
				t.Errorf("tool without schema not sent with an empty object schema: %s", got.Body)
			}
			switch {
			case tt.wantTemp < 0 && got.Temperature != nil:
				t.Errorf("temperature sent as %v, want absent", *got.Temperature)
			case tt.wantTemp >= 0 && (got.Temperature == nil || math.Abs(*got.Temperature-tt.wantTemp) > 1e-6):
				t.Errorf("temperature = %v, want %v (body %s)", got.Temperature, tt.wantTemp, got.Body)
			}
			if h := got.Header.Get("Authorization"); h != "Bearer sk-test" {
				t.Errorf("Authorization = %q", h)
			}
			if h := got.Header.Get("X-Title"); h != "reach" {
				t.Errorf("X-Title = %q", h)
			}
		})
	}
}

func TestCompleteCountsRequestBytes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Fault(500, ""), llmtest.Reply("ok"))
	client, _ := newClient(srv.URL(), true)
	resp, err := client.Complete(context.Background(), userRequest(strings.Repeat("x", 5000)), nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want := 0
	for _, r := range srv.Requests() {
		want += len(r.Body)
	}
	if resp.Requests != 2 || resp.RequestBytes != want || want < 10000 {
		t.Errorf("Requests = %d, RequestBytes = %d; want 2 and %d (the server's bodies)", resp.Requests, resp.RequestBytes, want)
	}
}
