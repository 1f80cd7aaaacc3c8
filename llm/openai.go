package llm

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// DefaultBaseURL is OpenAI's API, used when OpenAIConfig.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultIdleTimeout is how long an attempt may go without receiving a
// byte before it is abandoned and retried.
const DefaultIdleTimeout = 5 * time.Minute

// OpenAIConfig configures a client for an OpenAI-compatible chat
// completions endpoint. The zero value talks to api.openai.com without a
// key, without streaming, with the default RetryPolicy.
type OpenAIConfig struct {
	// BaseURL of the API, ending in /v1 for most providers.
	BaseURL string
	// APIKey is sent as a bearer token when not empty.
	APIKey string
	// Provider names the provider ("openai", "openrouter", …) in messages.
	Provider string
	// KeyEnv is the environment variable the key came from, named in the
	// hint of an authentication failure (e.g. "OPENAI_API_KEY").
	KeyEnv string
	// BaseURLEnv is the variable named in the hint when the endpoint
	// cannot be reached (default "OPENAI_BASE_URL").
	BaseURLEnv string
	// Stream asks for server-sent events and passes text to onText as it
	// arrives; otherwise each turn is one JSON response.
	Stream bool
	// Headers are added to every request (e.g. OpenRouter's X-Title).
	Headers map[string]string
	// HTTPClient supplies the transport, timeout, cookie jar and redirect
	// policy (default http.DefaultTransport, no overall timeout: streams
	// can be long, the idle timeout guards against hangs).
	HTTPClient *http.Client
	// Retry governs attempts and waits.
	Retry RetryPolicy
	// IdleTimeout abandons (and retries) an attempt that receives nothing
	// for this long (default DefaultIdleTimeout; negative disables it).
	IdleTimeout time.Duration
}

// OpenAI is a Client for OpenAI-compatible chat completion APIs, built on
// github.com/sashabaranov/go-openai. It is safe for concurrent use.
//
// Complete retries a whole turn on rate limits, overload, gateway errors,
// timeouts, dropped connections and unreadable replies. When streaming,
// onText may therefore have seen text of an attempt that later failed:
// the returned Response is authoritative.
type OpenAI struct {
	cfg         OpenAIConfig
	baseURL     string
	transport   http.RoundTripper
	idleTimeout time.Duration
	retry       RetryPolicy
}

var _ Client = (*OpenAI)(nil)

// NewOpenAI returns a client for the endpoint cfg describes.
func NewOpenAI(cfg OpenAIConfig) *OpenAI {
	c := &OpenAI{cfg: cfg, baseURL: strings.TrimRight(cfg.BaseURL, "/"), retry: cfg.Retry.withDefaults()}
	if c.baseURL == "" {
		c.baseURL = DefaultBaseURL
	}
	c.transport = http.DefaultTransport
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		c.transport = cfg.HTTPClient.Transport
	}
	c.idleTimeout = cfg.IdleTimeout
	if c.idleTimeout == 0 {
		c.idleTimeout = DefaultIdleTimeout
	}
	return c
}

// BaseURL is the endpoint the client talks to.
func (c *OpenAI) BaseURL() string { return c.baseURL }

func (c *OpenAI) baseURLEnv() string {
	if c.cfg.BaseURLEnv != "" {
		return c.cfg.BaseURLEnv
	}
	return "OPENAI_BASE_URL"
}

// Complete sends one turn, retrying per the RetryPolicy. On failure the
// error is a *ProviderError, or wraps ctx.Err() when ctx ended first; the
// Response then still carries Requests and RequestBytes.
func (c *OpenAI) Complete(ctx context.Context, req Request, onText func(delta string)) (Response, error) {
	if req.Model == "" {
		return Response{}, &ProviderError{Message: "no model given", Hint: "Set --model", Attempts: 1}
	}
	creq := chatRequest(req)
	zeroTemp := req.Temperature != nil && *req.Temperature == 0
	var counts Response
	for attempt := 1; ; attempt++ {
		resp, tr, err := c.attempt(ctx, creq, zeroTemp, onText)
		counts.Requests += int(tr.requests.Load())
		counts.RequestBytes += int(tr.bodyBytes.Load())
		if err == nil {
			resp.Requests, resp.RequestBytes = counts.Requests, counts.RequestBytes
			return resp, nil
		}
		if ctx.Err() != nil {
			return counts, fmt.Errorf("call model %s: %w", req.Model, ctx.Err())
		}
		status, retryAfter := tr.last()
		f := c.classify(err, status, tr.bodyHead(), req.Model)
		if !f.retry || attempt >= c.retry.MaxAttempts {
			return counts, f.providerError(attempt)
		}
		if err := c.retry.Sleep(ctx, c.retry.Delay(attempt, retryAfter)); err != nil {
			return counts, fmt.Errorf("call model %s: wait to retry: %w", req.Model, err)
		}
	}
}

// attempt makes one try at a turn with its own transport wrapper, so the
// counters, the Retry-After header and the idle watchdog are per attempt.
func (c *OpenAI) attempt(ctx context.Context, creq openai.ChatCompletionRequest, zeroTemp bool, onText func(string)) (Response, *attemptTransport, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	tr := &attemptTransport{base: c.transport, headers: c.cfg.Headers, zeroTemp: zeroTemp}
	if c.idleTimeout > 0 {
		timer := time.AfterFunc(c.idleTimeout, func() { cancel(errIdle) })
		defer timer.Stop()
		tr.activity = func() { timer.Reset(c.idleTimeout) }
	}
	oc := openai.DefaultConfig(c.cfg.APIKey)
	oc.BaseURL = c.baseURL
	hc := &http.Client{Transport: tr}
	if c.cfg.HTTPClient != nil {
		hc.Timeout, hc.Jar, hc.CheckRedirect = c.cfg.HTTPClient.Timeout, c.cfg.HTTPClient.Jar, c.cfg.HTTPClient.CheckRedirect
	}
	oc.HTTPClient = hc
	client := openai.NewClientWithConfig(oc)

	var resp Response
	var err error
	if c.cfg.Stream {
		resp, err = streamTurn(actx, client, creq, tr, onText)
	} else {
		resp, err = completeTurn(actx, client, creq)
	}
	if err != nil && ctx.Err() == nil && context.Cause(actx) == errIdle {
		err = fmt.Errorf("%w: %w", errIdle, err)
	}
	return resp, tr, err
}

// chatRequest converts a Request to go-openai's form.
func chatRequest(req Request) openai.ChatCompletionRequest {
	creq := openai.ChatCompletionRequest{Model: req.Model, Messages: make([]openai.ChatCompletionMessage, 0, len(req.Messages))}
	for _, m := range req.Messages {
		om := openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{
				ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments},
			})
		}
		creq.Messages = append(creq.Messages, om)
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = []byte(`{"type":"object","properties":{}}`)
		}
		creq.Tools = append(creq.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: params,
		}})
	}
	if req.Temperature != nil {
		creq.Temperature = *req.Temperature
	}
	return creq
}
