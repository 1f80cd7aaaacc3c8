package retrieval

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/reach-agent/reach/retrieval/embedtest"
)

func TestCacheComputesOnlyMissingTexts(t *testing.T) {
	t.Parallel()
	srv := embedtest.NewServer(t)
	dir := t.TempDir()
	newCache := func(model string) *Cache {
		return &Cache{Inner: &Endpoint{BaseURL: srv.URL(), Model: model}, Model: model, Dir: dir}
	}
	ctx := context.Background()
	steps := []struct {
		name       string
		model      string
		texts      []string
		wantHits   int
		wantMisses int
		wantServed int // texts the server has embedded in total after the step
	}{
		{"cold", "m1", []string{"create issue", "weather forecast"}, 0, 2, 2},
		{"warm, one new text", "m1", []string{"weather forecast", "stock price", "create issue"}, 2, 1, 3},
		{"another model misses", "m2", []string{"create issue"}, 0, 1, 4},
		{"all cached", "m1", []string{"stock price"}, 1, 0, 4},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			c := newCache(st.model) // a new process: reads the file
			vs, err := c.Embed(ctx, st.texts)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range vs {
				if cosine(v, embedtest.Vector(st.texts[i])) < 0.9999 {
					t.Errorf("vector %d is not the one for %q", i, st.texts[i])
				}
			}
			if h, m := c.Stats(); h != st.wantHits || m != st.wantMisses {
				t.Errorf("hits %d misses %d, want %d %d", h, m, st.wantHits, st.wantMisses)
			}
			if srv.Texts() != st.wantServed {
				t.Errorf("server embedded %d texts, want %d", srv.Texts(), st.wantServed)
			}
		})
	}
}

func TestCacheSurvivesADamagedFile(t *testing.T) {
	t.Parallel()
	srv := embedtest.NewServer(t)
	c := &Cache{Inner: &Endpoint{BaseURL: srv.URL(), Model: "m"}, Model: "m", Dir: t.TempDir()}
	if err := os.WriteFile(c.Path(), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(context.Background(), []string{"a b"}); err != nil {
		t.Fatalf("a damaged cache must be recomputed, got %v", err)
	}
	if _, m := c.Stats(); m != 1 {
		t.Errorf("misses %d, want 1", m)
	}
}

func TestEndpointErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		status     int
		want       string
	}{
		{"server error", `{"error":{"message":"model overloaded"}}`, 503, "503"},
		{"not json", `<html>`, 200, "not an embeddings object"},
		{"missing vector", `{"data":[{"index":0,"embedding":[1,2]}]}`, 200, "no vector for input 1"},
		{"bad index", `{"data":[{"index":7,"embedding":[1]}]}`, 200, "index 7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			e := &Endpoint{BaseURL: srv.URL, Model: "m"}
			_, err := e.Embed(context.Background(), []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestHybridBlendsAndFallsBack(t *testing.T) {
	t.Parallel()
	docs := []Doc{
		{Name: "github__create_issue", Summary: "Open a new issue in a GitHub repository."},
		{Name: "weather__forecast", Summary: "Weather forecast for a city."},
		{Name: "stocks__quote", Summary: "Latest stock price of a ticker symbol."},
	}
	ctx := context.Background()
	srv := embedtest.NewServer(t)
	h, err := NewHybrid(ctx, docs, Weights{}, &Endpoint{BaseURL: srv.URL(), Model: "m"}, 0)
	if err != nil || !h.Embedded() {
		t.Fatalf("hybrid: %v embedded=%v", err, h.Embedded())
	}
	s, err := h.Scores(ctx, "will it rain in the city tomorrow, forecast please")
	if err != nil {
		t.Fatal(err)
	}
	if best := TopK(s, []string{"a", "b", "c"}, 1); best[0].Doc != 1 {
		t.Errorf("best %v, want the weather tool", best)
	}
	for i, x := range s {
		if x < 0 || x > 1 {
			t.Errorf("score %d = %f outside [0, 1]", i, x)
		}
	}

	down := &Endpoint{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}
	h, err = NewHybrid(ctx, docs, Weights{}, down, 0)
	if err == nil || h.Embedded() {
		t.Fatalf("an unreachable endpoint must be reported and leave BM25: %v", err)
	}
	s, _ = h.Scores(ctx, "stock price")
	if best := TopK(s, []string{"a", "b", "c"}, 1); best[0].Doc != 2 || s[2] != 1 {
		t.Errorf("BM25 fallback scores %v", s)
	}
}
