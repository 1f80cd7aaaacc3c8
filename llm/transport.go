package llm

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// attemptTransport wraps the caller's RoundTripper for one attempt of one
// turn. It adds the configured headers, counts requests and request-body
// bytes, remembers the last status and Retry-After header (go-openai's
// errors do not carry headers), reports activity to the idle watchdog, and
// watches a stream for its "[DONE]" terminator.
type attemptTransport struct {
	base     http.RoundTripper
	headers  map[string]string
	zeroTemp bool   // inject "temperature":0, which go-openai omits as empty
	activity func() // called when headers or body bytes arrive

	requests  atomic.Int64
	bodyBytes atomic.Int64

	mu         sync.Mutex
	status     int
	retryAfter string
	sawDone    bool
	head       []byte // the first bytes of the last response body
}

// headLimit is how much of a response body is kept to explain a reply
// that could not be read.
const headLimit = 512

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	if req.Body != nil && req.Body != http.NoBody {
		if t.zeroTemp {
			if err := injectZeroTemperature(req); err != nil {
				return nil, err
			}
		}
		req.Body = &countingReader{r: req.Body, n: &t.bodyBytes}
		if getBody := req.GetBody; getBody != nil {
			req.GetBody = func() (io.ReadCloser, error) {
				b, err := getBody()
				if err != nil {
					return nil, err
				}
				return &countingReader{r: b, n: &t.bodyBytes}, nil
			}
		}
	}
	t.requests.Add(1)
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	t.touch()
	t.mu.Lock()
	t.status = resp.StatusCode
	t.retryAfter = resp.Header.Get("Retry-After")
	t.head = t.head[:0]
	t.mu.Unlock()
	resp.Body = &watchedBody{ReadCloser: resp.Body, t: t}
	return resp, nil
}

func (t *attemptTransport) touch() {
	if t.activity != nil {
		t.activity()
	}
}

// last returns the status and Retry-After header of the last response.
func (t *attemptTransport) last() (status int, retryAfter string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status, t.retryAfter
}

// bodyHead returns the first bytes of the last response body.
func (t *attemptTransport) bodyHead() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.head...)
}

func (t *attemptTransport) done() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sawDone
}

// injectZeroTemperature adds "temperature":0 to a JSON object body.
// go-openai tags Temperature with omitempty, so an explicit 0 would
// otherwise be dropped and the provider's default (often 1) used instead.
func injectZeroTemperature(req *http.Request) error {
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return fmt.Errorf("read request body: %w", err)
	}
	if i := bytes.IndexByte(body, '{'); i >= 0 && !bytes.Contains(body, []byte(`"temperature":`)) {
		patched := make([]byte, 0, len(body)+len(`"temperature":0,`))
		patched = append(patched, body[:i+1]...)
		patched = append(patched, `"temperature":0`...)
		rest := bytes.TrimLeft(body[i+1:], " \t\r\n")
		if len(rest) > 0 && rest[0] != '}' {
			patched = append(patched, ',')
		}
		patched = append(patched, rest...)
		body = patched
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return nil
}

type countingReader struct {
	r io.ReadCloser
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingReader) Close() error { return c.r.Close() }

// doneMarker ends an OpenAI server-sent-event stream ("data: [DONE]",
// with or without the space).
const doneMarker = "[DONE]"

// watchedBody reports read activity and notices the stream terminator, so
// a stream cut short (which go-openai reports as a plain io.EOF) can be
// told apart from a complete one.
type watchedBody struct {
	io.ReadCloser
	t    *attemptTransport
	tail []byte
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.t.touch()
		window := append(b.tail, p[:n]...)
		b.t.mu.Lock()
		if i := bytes.Index(window, []byte(doneMarker)); i >= 0 && bytes.HasSuffix(bytes.TrimRight(window[:i], " "), []byte("data:")) {
			b.t.sawDone = true
		}
		if room := headLimit - len(b.t.head); room > 0 {
			b.t.head = append(b.t.head, p[:min(n, room)]...)
		}
		b.t.mu.Unlock()
		keep := len("data:  " + doneMarker)
		if len(window) > keep {
			window = window[len(window)-keep:]
		}
		b.tail = append(b.tail[:0], window...)
	}
	return n, err
}
