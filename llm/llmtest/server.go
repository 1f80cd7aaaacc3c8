package llmtest

import (
	"net/http/httptest"
	"testing"
)

// Server is a Script served on 127.0.0.1 for the length of a test.
type Server struct {
	*Script
	srv *httptest.Server
}

// NewServer starts a server replaying turns. A request the script cannot
// answer (for instance once it is exhausted) fails the test with
// t.Errorf. The server is closed by t.Cleanup.
func NewServer(t testing.TB, turns ...Turn) *Server {
	t.Helper()
	s := &Server{Script: NewScript(turns...)}
	s.OnProblem = func(msg string) { t.Errorf("%s", msg) }
	s.srv = httptest.NewServer(s.Script)
	t.Cleanup(s.Close)
	return s
}

// URL is the API base URL, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close releases hanging requests and stops the server. It is safe to
// call more than once.
func (s *Server) Close() {
	s.Script.Close()
	s.srv.Close()
}
