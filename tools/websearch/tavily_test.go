package websearch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reach-agent/reach/tools"
)

// tavily is a Tavily-compatible server on 127.0.0.1 that records the
// requests it gets and answers with handle.
func tavily(t *testing.T, handle http.HandlerFunc) (*httptest.Server, *log) {
	t.Helper()
	l := &log{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body searchRequest
		_ = json.NewDecoder(r.Body).Decode(&body)
		l.add(recorded{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body})
		handle(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, l
}

type recorded struct {
	Method, Path, Auth string
	Body               searchRequest
}

// log holds the requests a test server received.
type log struct {
	mu   sync.Mutex
	reqs []recorded
}

func (l *log) add(r recorded) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r)
}

func (l *log) all() []recorded {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]recorded(nil), l.reqs...)
}

func execute(t *testing.T, opts Options, args string) tools.Result {
	t.Helper()
	reg := tools.NewRegistry()
	if err := reg.Register(Tool(opts)); err != nil {
		t.Fatal(err)
	}
	ex := &tools.Executor{Registry: reg}
	return ex.Execute(context.Background(), tools.Call{ID: "1", Name: "web_search_tavily", Arguments: args}, []string{"web_search_tavily"})
}

func TestSearchSuccess(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 300)
	srv, got := tavily(t, func(w http.ResponseWriter, _ *http.Request) {
		var results []map[string]any
		for i := 1; i <= 8; i++ {
			results = append(results, map[string]any{
				"title": fmt.Sprintf("Result\n %d", i), "url": fmt.Sprintf("https://example.com/%d", i),
				"content": "first line\nsecond line " + long, "score": 0.9, "raw_content": nil,
			})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"query": "q", "answer": nil, "results": results, "response_time": 0.5})
	})
	res := execute(t, Options{APIKey: "tvly-test", BaseURL: srv.URL + "/", MaxResults: 3}, `{"query":"go 1.26 release notes"}`)
	if !res.Success {
		t.Fatalf("search failed: %+v", res)
	}
	req := got.all()[0]
	if req.Method != http.MethodPost || req.Path != "/search" || req.Auth != "Bearer tvly-test" ||
		req.Body.Query != "go 1.26 release notes" || req.Body.MaxResults != 3 {
		t.Errorf("request = %+v", req)
	}
	for _, want := range []string{`3 web results for "go 1.26 release notes"`, "1. Result 1\n   https://example.com/1\n   first line second line word", "3. Result 3"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	if strings.Contains(res.Output, "Result 4") {
		t.Errorf("more results than the cap:\n%s", res.Output)
	}
	for _, line := range strings.Split(res.Output, "\n") {
		if n := len([]rune(strings.TrimSpace(line))); n > MaxSnippetRunes {
			t.Errorf("line of %d runes, snippet cap is %d", n, MaxSnippetRunes)
		}
	}
}

func TestSearchNoResults(t *testing.T) {
	t.Parallel()
	srv, _ := tavily(t, func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"query":"x","results":[]}`))
	})
	res := execute(t, Options{APIKey: "k", BaseURL: srv.URL}, `{"query":"zzzz"}`)
	if !res.Success || res.Output != `No web results for "zzzz".` {
		t.Fatalf("result = %+v", res)
	}
}

func TestSearchErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		status  int
		body    string
		opts    Options
		args    string
		want    []string
		noCalls bool
	}{
		{name: "bad key", status: 401, body: `{"detail":{"error":"Unauthorized: missing or invalid API key."}}`,
			want: []string{"API key was rejected", "HTTP 401", "invalid API key", "TAVILY_API_KEY"}},
		{name: "rate limit", status: 429, body: `{"detail":{"error":"Too many requests"}}`,
			want: []string{"rate limit", "HTTP 429", "Too many requests"}},
		{name: "plan quota", status: 432, body: `{"detail":{"error":"This request exceeds your plan's set usage limit."}}`,
			want: []string{"quota used up", "HTTP 432"}},
		{name: "server error", status: 502, body: `bad gateway`, want: []string{"service error (HTTP 502)"}},
		{name: "not json", status: 200, body: `<html>`, want: []string{"not Tavily's JSON"}},
		{name: "empty query", args: `{"query":"   "}`, want: []string{"query is empty"}, noCalls: true},
		{name: "schema", args: `{"q":"x"}`, want: []string{"query"}, noCalls: true},
		{name: "no key", opts: Options{APIKey: "-"}, want: []string{"TAVILY_API_KEY is not set"}, noCalls: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, got := tavily(t, func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			opts := tc.opts
			opts.BaseURL = srv.URL
			switch opts.APIKey {
			case "":
				opts.APIKey = "k"
			case "-":
				opts.APIKey = ""
			}
			args := tc.args
			if args == "" {
				args = `{"query":"anything"}`
			}
			res := execute(t, opts, args)
			if res.Success {
				t.Fatalf("want a tool error, got %+v", res)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Error, w) {
					t.Errorf("error lacks %q: %s", w, res.Error)
				}
			}
			if n := len(got.all()); tc.noCalls != (n == 0) {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestSearchTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv, _ := tavily(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	start := time.Now()
	res := execute(t, Options{APIKey: "k", BaseURL: srv.URL, Timeout: 150 * time.Millisecond}, `{"query":"slow"}`)
	if res.Success || !strings.Contains(res.Error, "timed out after 150ms") {
		t.Fatalf("result = %+v", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the timeout took %s", d)
	}
}

func TestSearchUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	res := execute(t, Options{APIKey: "k", BaseURL: url}, `{"query":"x"}`)
	if res.Success || !strings.Contains(res.Error, "could not be reached") {
		t.Fatalf("result = %+v", res)
	}
}

func TestSpec(t *testing.T) {
	t.Parallel()
	s := Tool(Options{}).Spec
	if s.Name != "web_search_tavily" || s.SideEffect != tools.Network || s.Backend != "web" || !s.HasGroup(tools.GroupBase) {
		t.Errorf("spec = %+v", s)
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"ünïcödé text", 5, "ünïc…"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			if got := clip(tc.in, tc.n); got != tc.want {
				t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
}
