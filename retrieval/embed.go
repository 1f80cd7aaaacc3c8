package retrieval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
)

// Embedder turns texts into vectors, one per text, in order.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Endpoint is an OpenAI-compatible /embeddings endpoint.
type Endpoint struct {
	BaseURL string // e.g. https://api.openai.com/v1
	APIKey  string
	Model   string
	// HTTP is the client (http.DefaultClient when nil).
	HTTP *http.Client
	// Batch is how many texts go in one request (default 64).
	Batch int
}

// Embed implements Embedder.
func (e *Endpoint) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	batch := e.Batch
	if batch <= 0 {
		batch = 64
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batch {
		vs, err := e.embedBatch(ctx, texts[start:min(start+batch, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

func (e *Endpoint) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(map[string]any{"model": e.Model, "input": texts})
	if err != nil {
		return nil, fmt.Errorf("encode embeddings request: %w", err)
	}
	url := strings.TrimSuffix(e.BaseURL, "/") + "/embeddings"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embeddings request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.APIKey)
	}
	client := e.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embeddings (%s): %w", e.Model, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("embeddings (%s): read answer: %w", e.Model, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embeddings (%s): %s: %s", e.Model, resp.Status, firstLine(raw))
	}
	var ans struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("embeddings (%s): answer is not an embeddings object: %w", e.Model, err)
	}
	out := make([][]float32, len(texts))
	for _, d := range ans.Data {
		if d.Index < 0 || d.Index >= len(texts) {
			return nil, fmt.Errorf("embeddings (%s): answer has index %d for %d inputs", e.Model, d.Index, len(texts))
		}
		out[d.Index] = d.Embedding
	}
	for i, v := range out {
		if len(v) == 0 {
			return nil, fmt.Errorf("embeddings (%s): no vector for input %d", e.Model, i)
		}
	}
	return out, nil
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// cosine is the cosine similarity of a and b (0 when either is zero or
// their lengths differ).
func cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
