package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/llm/llmtest"
)

func repeat(t llmtest.Turn, n int) []llmtest.Turn {
	turns := make([]llmtest.Turn, n)
	for i := range turns {
		turns[i] = t
	}
	return turns
}

func TestCompleteRetries(t *testing.T) {
	t.Parallel()
	s := time.Second
	ok := llmtest.Reply("recovered")
	tests := []struct {
		name      string
		turns     []llmtest.Turn
		wantWaits []time.Duration
		// when wantErr is empty the call must succeed with "recovered"
		wantErr      string
		wantStatus   int
		wantAttempts int
		maxBackoff   time.Duration // 0 for the default
	}{
		{name: "429 with Retry-After seconds", turns: []llmtest.Turn{llmtest.RateLimited("7"), ok}, wantWaits: []time.Duration{7 * s}},
		{name: "429 with fractional Retry-After", turns: []llmtest.Turn{llmtest.RateLimited("0.5"), ok}, wantWaits: []time.Duration{s / 2}},
		{name: "429 with Retry-After date", turns: []llmtest.Turn{llmtest.RateLimited("Wed, 01 Jan 2025 00:00:12 GMT"), ok}, wantWaits: []time.Duration{12 * s}},
		{name: "Retry-After is capped", turns: []llmtest.Turn{llmtest.RateLimited("3600"), ok}, wantWaits: []time.Duration{60 * s}},
		{name: "429 without Retry-After backs off", turns: []llmtest.Turn{llmtest.RateLimited(""), ok}, wantWaits: []time.Duration{s}},
		{name: "500, 500, then success", turns: []llmtest.Turn{llmtest.Fault(500, ""), llmtest.Fault(500, ""), ok}, wantWaits: []time.Duration{s, 2 * s}},
		{name: "502, 503, 504, 529, then success", turns: []llmtest.Turn{llmtest.Fault(502, "<html>bad gateway</html>"), llmtest.Fault(503, ""), llmtest.Fault(504, ""), llmtest.Fault(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), ok}, wantWaits: []time.Duration{s, 2 * s, 4 * s, 8 * s}},
		{name: "garbage then success", turns: []llmtest.Turn{llmtest.Garbage(), ok}, wantWaits: []time.Duration{s}},
		{
			name: "six failures", turns: repeat(llmtest.Fault(503, `{"error":{"message":"upstream overloaded"}}`), 6),
			wantWaits: []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s}, wantErr: "upstream overloaded", wantStatus: 503, wantAttempts: 6,
		},
		{
			name: "backoff is capped", turns: repeat(llmtest.Fault(500, ""), 6), maxBackoff: 4 * s,
			wantWaits: []time.Duration{s, 2 * s, 4 * s, 4 * s, 4 * s}, wantErr: "Internal Server Error", wantStatus: 500, wantAttempts: 6,
		},
		{
			name: "garbage every time", turns: repeat(llmtest.Garbage(), 6),
			wantWaits: []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s}, wantErr: "invalid response from http://", wantStatus: 200, wantAttempts: 6,
		},
		{name: "error event then success", turns: []llmtest.Turn{{Text: "abc", DropAfter: 1, StreamError: "upstream provider hiccup"}, ok}, wantWaits: []time.Duration{s}},
		{
			name: "error event every time", turns: repeat(llmtest.Turn{StreamError: "upstream provider hiccup"}, 6),
			wantWaits: []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s}, wantErr: "upstream provider hiccup after 6 attempts", wantStatus: 200, wantAttempts: 6,
		},
		{name: "400 is not retried", turns: []llmtest.Turn{llmtest.Fault(400, `{"error":{"message":"messages: tool_call_id call_9 has no matching call"}}`)}, wantErr: "tool_call_id call_9 has no matching call", wantStatus: 400, wantAttempts: 1},
		{name: "400 with a plain-text body", turns: []llmtest.Turn{llmtest.Fault(400, "context length exceeded")}, wantErr: "(HTTP 400): context length exceeded", wantStatus: 400, wantAttempts: 1},
		{name: "401 names the key variable", turns: []llmtest.Turn{llmtest.Fault(401, `{"error":{"message":"Incorrect API key provided"}}`)}, wantErr: "Check the API key in OPENAI_API_KEY", wantStatus: 401, wantAttempts: 1},
		{name: "403 names the key variable", turns: []llmtest.Turn{llmtest.Fault(403, "")}, wantErr: "OPENAI_API_KEY", wantStatus: 403, wantAttempts: 1},
		{name: "404 points at model and base URL", turns: []llmtest.Turn{llmtest.Fault(404, `{"error":{"message":"model not found"}}`)}, wantErr: `Check --model (is "gpt-4o-mini" served by openai at http://`, wantStatus: 404, wantAttempts: 1},
	}
	for _, tt := range tests {
		for _, stream := range []bool{true, false} {
			name := tt.name + map[bool]string{true: "/stream", false: "/plain"}[stream]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				srv := llmtest.NewServer(t, tt.turns...)
				client, rec := newClient(srv.URL(), stream, func(c *llm.OpenAIConfig) {
					c.Retry.Now = func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) }
					c.Retry.Max = tt.maxBackoff
				})
				resp, err := client.Complete(context.Background(), userRequest("hi"), nil)
				if !slices.Equal(rec.Waits(), tt.wantWaits) {
					t.Errorf("waits = %v, want %v", rec.Waits(), tt.wantWaits)
				}
				if resp.Requests != len(tt.turns) {
					t.Errorf("Requests = %d, want %d", resp.Requests, len(tt.turns))
				}
				if tt.wantErr == "" {
					if err != nil || resp.Message.Content != "recovered" {
						t.Fatalf("Complete = %q, %v; want the recovered reply", resp.Message.Content, err)
					}
					return
				}
				var pe *llm.ProviderError
				if !errors.As(err, &pe) {
					t.Fatalf("error = %v (%T), want a *llm.ProviderError", err, err)
				}
				if !strings.Contains(pe.Error(), tt.wantErr) || pe.Status != tt.wantStatus || pe.Attempts != tt.wantAttempts {
					t.Errorf("error = %q (status %d, attempts %d), want it to contain %q with status %d after %d attempts",
						pe.Error(), pe.Status, pe.Attempts, tt.wantErr, tt.wantStatus, tt.wantAttempts)
				}
			})
		}
	}
}

func TestCompleteRetriesStreamCutMidway(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t,
		llmtest.Turn{Text: "partial attempt text", ChunkSize: 4, DropAfter: 3},
		llmtest.Turn{Text: "whole reply", ChunkSize: 4},
	)
	client, rec := newClient(srv.URL(), true)
	var seen strings.Builder
	resp, err := client.Complete(context.Background(), userRequest("hi"), func(d string) { seen.WriteString(d) })
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if resp.Message.Content != "whole reply" || resp.Requests != 2 || len(rec.Waits()) != 1 {
		t.Errorf("got %q after %d requests and waits %v; want the second attempt's reply after 2", resp.Message.Content, resp.Requests, rec.Waits())
	}
	// onText saw the failed attempt's first pieces, then the whole reply.
	if got := seen.String(); got != "partial whole reply" {
		t.Errorf("streamed text = %q", got)
	}
}

func TestCompleteConnectionRefusedFailsFast(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	for _, stream := range []bool{true, false} {
		client, rec := newClient(base, stream)
		resp, err := client.Complete(context.Background(), userRequest("hi"), nil)
		var pe *llm.ProviderError
		if !errors.As(err, &pe) {
			t.Fatalf("error = %v, want a *llm.ProviderError", err)
		}
		want := "cannot reach " + base + ": connection refused. Check --base-url or OPENAI_BASE_URL"
		if !strings.Contains(pe.Error(), want) || pe.Attempts != 1 || len(rec.Waits()) != 0 || resp.Requests != 1 {
			t.Errorf("error = %q, attempts %d, waits %v, requests %d; want %q at once", pe.Error(), pe.Attempts, rec.Waits(), resp.Requests, want)
		}
	}
}

func TestCompleteUnknownHostFailsFast(t *testing.T) {
	t.Parallel()
	client, rec := newClient("http://no-such-host.invalid/v1", false)
	_, err := client.Complete(context.Background(), userRequest("hi"), nil)
	var pe *llm.ProviderError
	if !errors.As(err, &pe) || !strings.Contains(pe.Error(), "cannot reach http://no-such-host.invalid/v1") || len(rec.Waits()) != 0 {
		t.Errorf("error = %v, waits %v; want an immediate cannot-reach error", err, rec.Waits())
	}
}

func TestCompleteCancelledDuringHang(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{true, false} {
		received := make(chan struct{})
		srv := llmtest.NewServer(t, llmtest.Dynamic(func(llmtest.Request) llmtest.Turn {
			close(received)
			return llmtest.Hang()
		}))
		client, rec := newClient(srv.URL(), stream)
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			<-received
			cancel()
		}()
		_, err := client.Complete(ctx, userRequest("hi"), nil)
		if !errors.Is(err, context.Canceled) || llm.IsProviderError(err) {
			t.Errorf("stream=%v: error = %v, want context.Canceled and no ProviderError", stream, err)
		}
		if len(rec.Waits()) != 0 {
			t.Errorf("stream=%v: waits = %v, want no retry after cancellation", stream, rec.Waits())
		}
	}
}

func TestCompleteCancelledDuringBackoff(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.RateLimited("30"))
	ctx, cancel := context.WithCancel(context.Background())
	client := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Retry: llm.RetryPolicy{
		Sleep: func(ctx context.Context, d time.Duration) error {
			cancel() // the user presses Esc while we wait
			<-ctx.Done()
			return ctx.Err()
		},
	}})
	_, err := client.Complete(ctx, userRequest("hi"), nil)
	if !errors.Is(err, context.Canceled) || llm.IsProviderError(err) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
}

func TestCompleteIdleTimeoutRetries(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Hang(), llmtest.Reply("after the hang"))
	client, rec := newClient(srv.URL(), true, func(c *llm.OpenAIConfig) { c.IdleTimeout = 50 * time.Millisecond })
	resp, err := client.Complete(context.Background(), userRequest("hi"), nil)
	if err != nil || resp.Message.Content != "after the hang" || resp.Requests != 2 || len(rec.Waits()) != 1 {
		t.Errorf("Complete = %q, %v after %d requests, waits %v; want a retry after the idle timeout", resp.Message.Content, err, resp.Requests, rec.Waits())
	}
}

func TestCompleteRespectsHTTPClientTransport(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Reply("via custom transport"))
	var seen int
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen++
		return http.DefaultTransport.RoundTrip(r)
	})
	client, _ := newClient(srv.URL(), false, func(c *llm.OpenAIConfig) { c.HTTPClient = &http.Client{Transport: rt} })
	resp, err := client.Complete(context.Background(), userRequest("hi"), nil)
	if err != nil || resp.Message.Content != "via custom transport" || seen != 1 {
		t.Errorf("Complete = %q, %v; transport saw %d requests, want 1", resp.Message.Content, err, seen)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestCompleteWithoutModel(t *testing.T) {
	t.Parallel()
	client, _ := newClient("http://127.0.0.1:1/v1", false)
	_, err := client.Complete(context.Background(), llm.Request{}, nil)
	if !llm.IsProviderError(err) || !strings.Contains(err.Error(), "--model") {
		t.Errorf("error = %v, want a ProviderError pointing at --model", err)
	}
}
