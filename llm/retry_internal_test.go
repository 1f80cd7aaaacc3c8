package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestRetryPolicyDelay(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	ceiling := func(d time.Duration) time.Duration { return d }
	half := func(d time.Duration) time.Duration { return d / 2 }
	tests := []struct {
		name       string
		policy     RetryPolicy
		attempt    int
		retryAfter string
		want       time.Duration
	}{
		{"first retry waits Base", RetryPolicy{Jitter: ceiling}, 1, "", time.Second},
		{"doubles", RetryPolicy{Jitter: ceiling}, 4, "", 8 * time.Second},
		{"capped at Max", RetryPolicy{Jitter: ceiling}, 9, "", 30 * time.Second},
		{"custom base and max", RetryPolicy{Base: 100 * time.Millisecond, Max: time.Second, Jitter: ceiling}, 5, "", time.Second},
		{"jitter applies to the ceiling", RetryPolicy{Jitter: half}, 3, "", 2 * time.Second},
		{"Retry-After seconds win", RetryPolicy{Jitter: ceiling}, 1, "12", 12 * time.Second},
		{"Retry-After date", RetryPolicy{Jitter: ceiling, Now: func() time.Time { return now }}, 1, now.Add(90 * time.Second).Format(http.TimeFormat), 60 * time.Second},
		{"Retry-After date in the past", RetryPolicy{Jitter: ceiling, Now: func() time.Time { return now }}, 1, now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"Retry-After capped", RetryPolicy{Jitter: ceiling, MaxRetryAfter: 5 * time.Second}, 1, "20", 5 * time.Second},
		{"unreadable Retry-After is ignored", RetryPolicy{Jitter: ceiling}, 2, "soon", 2 * time.Second},
		{"negative Retry-After is ignored", RetryPolicy{Jitter: ceiling}, 1, "-3", time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.policy.Delay(tt.attempt, tt.retryAfter); got != tt.want {
				t.Errorf("Delay(%d, %q) = %v, want %v", tt.attempt, tt.retryAfter, got, tt.want)
			}
		})
	}
}

func TestFullJitterStaysInRange(t *testing.T) {
	t.Parallel()
	for range 1000 {
		if d := fullJitter(time.Second); d < 0 || d > time.Second {
			t.Fatalf("fullJitter(1s) = %v, outside [0, 1s]", d)
		}
	}
	if d := fullJitter(0); d != 0 {
		t.Errorf("fullJitter(0) = %v", d)
	}
}

func TestSleepContextHonoursCancellation(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleepContext(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("sleepContext on a cancelled context = %v, want context.Canceled", err)
	}
	if err := sleepContext(context.Background(), time.Millisecond); err != nil {
		t.Errorf("sleepContext(1ms) = %v", err)
	}
}

func TestReplyBuilderToolCallQuirks(t *testing.T) {
	t.Parallel()
	idx := func(i int) *int { return &i }
	delta := func(index *int, id, name, args string) openai.ChatCompletionStreamResponse {
		return openai.ChatCompletionStreamResponse{Choices: []openai.ChatCompletionStreamChoice{{Delta: openai.ChatCompletionStreamChoiceDelta{
			ToolCalls: []openai.ToolCall{{Index: index, ID: id, Function: openai.FunctionCall{Name: name, Arguments: args}}},
		}}}}
	}
	tests := []struct {
		name   string
		chunks []openai.ChatCompletionStreamResponse
		want   []ToolCall
	}{
		{
			name: "interleaved indexes",
			chunks: []openai.ChatCompletionStreamResponse{
				delta(idx(0), "a", "f", `{"x"`), delta(idx(1), "b", "g", `{"y"`),
				delta(idx(0), "", "", `:1}`), delta(idx(1), "", "", `:2}`),
			},
			want: []ToolCall{{ID: "a", Name: "f", Arguments: `{"x":1}`}, {ID: "b", Name: "g", Arguments: `{"y":2}`}},
		},
		{
			name: "every call numbered 0",
			chunks: []openai.ChatCompletionStreamResponse{
				delta(idx(0), "a", "f", `{}`), delta(idx(0), "b", "g", `{"k":`), delta(idx(0), "", "", `true}`),
			},
			want: []ToolCall{{ID: "a", Name: "f", Arguments: `{}`}, {ID: "b", Name: "g", Arguments: `{"k":true}`}},
		},
		{
			name: "no index, no ids: one call",
			chunks: []openai.ChatCompletionStreamResponse{
				delta(nil, "", "f", `{"a"`), delta(nil, "", "", `:1}`),
			},
			want: []ToolCall{{ID: "call_0", Name: "f", Arguments: `{"a":1}`}},
		},
		{
			name: "name repeated in every delta",
			chunks: []openai.ChatCompletionStreamResponse{
				delta(idx(0), "a", "f", `{`), delta(idx(0), "a", "f", `}`),
			},
			want: []ToolCall{{ID: "a", Name: "f", Arguments: `{}`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b replyBuilder
			for _, c := range tt.chunks {
				b.add(c, nil)
			}
			got := b.response().Message.ToolCalls
			if len(got) != len(tt.want) {
				t.Fatalf("calls = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("call %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestDescribeBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		head string
		want string
	}{
		{`{"error":{"message":"quota exceeded"}}`, ": quota exceeded"},
		{"<html>\n  <body>Bad   gateway</body></html>", ` (body starts "<html> <body>Bad gateway</body></html>")`},
		{"", ": empty body"},
		{strings.Repeat("é", 60), ` (body starts "` + strings.Repeat("é", 40) + `…")`},
	}
	for _, tt := range tests {
		if got := describeBody([]byte(tt.head)); got != tt.want {
			t.Errorf("describeBody(%q) = %q, want %q", tt.head, got, tt.want)
		}
	}
}
