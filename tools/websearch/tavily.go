// Package websearch provides web_search_tavily, a web search through the
// Tavily API for facts that are not in the repository.
package websearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reach-agent/reach/tools"
)

// Defaults of the Tavily client.
const (
	DefaultBaseURL    = "https://api.tavily.com"
	DefaultTimeout    = 30 * time.Second
	DefaultMaxResults = 5
	// MaxSnippetRunes caps each result's snippet.
	MaxSnippetRunes = 500
	// maxBody caps how much of a reply is read.
	maxBody = 4 << 20
)

// Options configures web_search_tavily.
type Options struct {
	APIKey string
	// BaseURL is the API root; "" means DefaultBaseURL.
	BaseURL string
	// HTTPClient sends the requests; nil means a client without its own
	// timeout (Timeout governs).
	HTTPClient *http.Client
	// Timeout of one search; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxResults is how many results to ask for and show; 0 means
	// DefaultMaxResults.
	MaxResults int
}

// Result is one search hit as the model sees it.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

// Tool returns web_search_tavily. Offer it only when an API key is set.
func Tool(opts Options) tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{
			Name: "web_search_tavily",
			Summary: "Search the web (Tavily) for facts outside the repository — library documentation, API changes, " +
				"error messages, release notes; returns titles, URLs and short snippets.",
			Parameters: json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "What to search for, as you would type it into a search engine."}
  },
  "required": ["query"],
  "additionalProperties": false
}`),
			SideEffect: tools.Network,
			Idempotent: true,
			Groups:     []string{tools.GroupBase},
			Timeout:    opts.timeout() + 5*time.Second,
			Backend:    "web",
			Version:    "1",
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			args, err := tools.Decode[struct {
				Query string `json:"query"`
			}](raw)
			if err != nil {
				return tools.Fail(err.Error())
			}
			if strings.TrimSpace(args.Query) == "" {
				return tools.Fail("query is empty: say what to search the web for")
			}
			results, err := Search(ctx, opts, args.Query)
			if err != nil {
				return tools.Fail(err.Error())
			}
			return tools.OK(format(args.Query, results))
		},
	}
}

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

func (o Options) maxResults() int {
	if o.MaxResults > 0 {
		return o.MaxResults
	}
	return DefaultMaxResults
}

type searchRequest struct {
	Query       string `json:"query"`
	MaxResults  int    `json:"max_results"`
	SearchDepth string `json:"search_depth"`
}

type searchReply struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
}

// Search asks Tavily for query and returns at most opts.MaxResults
// results. Errors say what went wrong in words the model can act on.
func Search(ctx context.Context, opts Options, query string) ([]Result, error) {
	if opts.APIKey == "" {
		return nil, errors.New("web search is not configured: TAVILY_API_KEY is not set")
	}
	base := strings.TrimRight(opts.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	body, err := json.Marshal(searchRequest{Query: query, MaxResults: opts.maxResults(), SearchDepth: "basic"})
	if err != nil {
		return nil, fmt.Errorf("encode search request: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/search", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("web search: build request for %s: %w", base, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+opts.APIKey)
	client := opts.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("web search timed out after %s; try again later or continue without it", opts.timeout())
		}
		return nil, fmt.Errorf("web search failed: the search service could not be reached (%v); continue without it", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("web search timed out after %s while reading the reply; try again later or continue without it", opts.timeout())
		}
		return nil, fmt.Errorf("web search: read reply: %w", err)
	}
	if err := statusError(resp.StatusCode, data); err != nil {
		return nil, err
	}
	var reply searchReply
	if err := json.Unmarshal(data, &reply); err != nil {
		return nil, fmt.Errorf("web search: the service sent a reply that is not Tavily's JSON (%v)", err)
	}
	out := make([]Result, 0, len(reply.Results))
	for _, r := range reply.Results {
		if len(out) == opts.maxResults() {
			break
		}
		out = append(out, Result{Title: oneLine(r.Title), URL: strings.TrimSpace(r.URL), Snippet: clip(oneLine(r.Content), MaxSnippetRunes)})
	}
	return out, nil
}

// statusError turns a non-2xx status into an error for the model.
func statusError(code int, body []byte) error {
	if code >= 200 && code < 300 {
		return nil
	}
	detail := serviceDetail(body)
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Errorf("web search unavailable: the Tavily API key was rejected (HTTP %d%s); the user must fix TAVILY_API_KEY. Continue without web search", code, detail)
	case code == http.StatusTooManyRequests:
		return fmt.Errorf("web search rate limit reached (HTTP 429%s); wait before searching again or continue without it", detail)
	case code == 432 || code == 433:
		return fmt.Errorf("web search quota used up (HTTP %d%s); continue without web search", code, detail)
	case code >= 500:
		return fmt.Errorf("web search service error (HTTP %d%s); try again later or continue without it", code, detail)
	}
	return fmt.Errorf("web search refused the request (HTTP %d%s); rephrase the query", code, detail)
}

// serviceDetail extracts Tavily's error message, if any, as ": message".
func serviceDetail(body []byte) string {
	var e struct {
		Detail any    `json:"detail"`
		Error  string `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	msg := e.Error
	switch d := e.Detail.(type) {
	case string:
		msg = d
	case map[string]any:
		if s, ok := d["error"].(string); ok {
			msg = s
		}
	}
	if msg = clip(oneLine(msg), 200); msg == "" {
		return ""
	}
	return ": " + msg
}

func format(query string, results []Result) string {
	if len(results) == 0 {
		return fmt.Sprintf("No web results for %q.", query)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d web results for %q:\n", len(results), query)
	for i, r := range results {
		fmt.Fprintf(&b, "\n%d. %s\n   %s\n", i+1, r.Title, r.URL)
		if r.Snippet != "" {
			fmt.Fprintf(&b, "   %s\n", r.Snippet)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to at most n runes, marking the cut with "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
