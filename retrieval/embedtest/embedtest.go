// Package embedtest is a local stand-in for an OpenAI-compatible
// /embeddings endpoint, for tests: vectors are hashed bags of words and
// character trigrams, so similar texts get similar vectors without any
// model. It measures plumbing, not the quality of real embeddings.
package embedtest

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// Dim is the length of the vectors.
const Dim = 256

// Server answers POST …/embeddings and counts the texts it embedded.
type Server struct {
	srv *httptest.Server

	mu     sync.Mutex
	texts  int
	calls  int
	models []string
}

// NewServer starts a server closed when t ends.
func NewServer(t testing.TB) *Server {
	s := &Server{}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the base URL to configure (ends in /v1).
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Texts is how many texts were embedded; Calls how many requests came.
func (s *Server) Texts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.texts
}

// Calls is how many requests were answered.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/embeddings") {
		http.Error(w, `{"error":{"message":"no route"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		http.Error(w, `{"error":{"message":"want {model, input: [texts]}"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.texts += len(req.Input)
	s.calls++
	s.models = append(s.models, req.Model)
	s.mu.Unlock()
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Data []item `json:"data"`
	}{}
	for i, text := range req.Input {
		out.Data = append(out.Data, item{Index: i, Embedding: Vector(text)})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// Vector is the embedding the server gives text.
func Vector(text string) []float32 {
	v := make([]float64, Dim)
	add := func(feature string, weight float64) {
		h := fnv.New32a()
		h.Write([]byte(feature))
		x := h.Sum32()
		sign := 1.0
		if x&1 == 1 {
			sign = -1
		}
		v[(x>>1)%Dim] += sign * weight
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		add("w:"+w, 1)
		padded := "^" + w + "$"
		for i := 0; i+3 <= len(padded); i++ {
			add("t:"+padded[i:i+3], 0.3)
		}
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, Dim)
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}
