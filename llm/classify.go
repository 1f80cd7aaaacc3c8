package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"

	openai "github.com/sashabaranov/go-openai"
)

// Failures of one attempt that go-openai cannot tell apart from success
// or reports as a bare io.EOF.
var (
	errInvalidResponse = errors.New("invalid response")
	errTruncated       = errors.New("stream ended before the reply was complete")
	errIdle            = errors.New("no data received within the idle timeout")
)

// failure is one failed attempt, classified.
type failure struct {
	retry   bool
	status  int
	message string
	hint    string
	err     error
}

func (f failure) providerError(attempts int) *ProviderError {
	return &ProviderError{Status: f.status, Message: f.message, Hint: f.hint, Attempts: attempts, Err: f.err}
}

// retryableStatus lists the HTTP statuses worth another attempt: rate
// limits, overload (529 is Anthropic's), gateway errors and timeouts.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError,
		http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, 529:
		return true
	}
	return false
}

// classify turns the error of one attempt into a failure that says whether
// to retry and what to tell the user. status and head are the last HTTP
// status seen and the first bytes of its body.
func (c *OpenAI) classify(err error, status int, head []byte, model string) failure {
	base := c.baseURL
	f := failure{err: err, status: status}
	reach := fmt.Sprintf("Check --base-url or %s", c.baseURLEnv())

	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	var dnsErr *net.DNSError
	var netErr net.Error
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.Is(err, errIdle):
		f.retry, f.status = true, 0
		f.message = fmt.Sprintf("no data from %s for %s", base, c.idleTimeout)
	case errors.As(err, &apiErr):
		if apiErr.HTTPStatusCode == 0 { // an error event inside a 200 stream
			f.retry = true
			f.message = apiErr.Message
			break
		}
		f.status = apiErr.HTTPStatusCode
		f.message = apiErr.Message
		c.byStatus(&f, model)
	case errors.As(err, &reqErr): // an error status whose body is not an error object
		f.status = reqErr.HTTPStatusCode
		f.message = bodyMessage(reqErr)
		c.byStatus(&f, model)
	case errors.Is(err, errInvalidResponse), errors.As(err, &syntaxErr), errors.As(err, &typeErr),
		errors.Is(err, openai.ErrTooManyEmptyStreamMessages):
		f.retry = true
		f.message = "invalid response from " + base + describeBody(head)
	case errors.Is(err, errTruncated):
		f.retry = true
		f.message = fmt.Sprintf("reply from %s was cut short", base)
	case errors.Is(err, syscall.ECONNREFUSED):
		f.message = fmt.Sprintf("cannot reach %s: connection refused", base)
		f.hint = reach
	case errors.As(err, &dnsErr):
		f.message = fmt.Sprintf("cannot reach %s: unknown host %s", base, dnsErr.Name)
		f.hint = reach
	case errors.As(err, &netErr) && netErr.Timeout():
		f.retry = true
		f.message = fmt.Sprintf("timed out talking to %s", base)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		f.retry = true
		f.message = fmt.Sprintf("connection to %s was lost: %v", base, err)
	case isTransportError(err):
		f.message = fmt.Sprintf("cannot reach %s: %v", base, err)
		f.hint = reach
	default: // go-openai refused the request before sending it
		f.message = fmt.Sprintf("invalid request for model %q: %v", model, err)
		f.hint = "Check --model and --temperature"
	}
	return f
}

// byStatus fills retry and hint from an HTTP error status.
func (c *OpenAI) byStatus(f *failure, model string) {
	switch {
	case retryableStatus(f.status):
		f.retry = true
	case f.status == http.StatusUnauthorized || f.status == http.StatusForbidden:
		env := c.cfg.KeyEnv
		if env == "" {
			env = "the provider's API key variable"
		}
		f.hint = fmt.Sprintf("Check the API key in %s", env)
	case f.status == http.StatusNotFound:
		where := c.baseURL
		if c.cfg.Provider != "" {
			where = c.cfg.Provider + " at " + where
		}
		f.hint = fmt.Sprintf("Check --model (is %q served by %s?) and --base-url", model, where)
	}
	if f.message == "" {
		f.message = http.StatusText(f.status)
	}
}

// bodyMessage is the readable part of an error response that was not the
// usual {"error": {...}} object: its body (an HTML error page is skipped).
func bodyMessage(e *openai.RequestError) string {
	if e.Err != nil {
		var apiErr *openai.APIError
		if errors.As(e.Err, &apiErr) && apiErr.Message != "" {
			return apiErr.Message
		}
	}
	body := strings.TrimSpace(string(e.Body))
	if body == "" || strings.HasPrefix(body, "<") {
		return http.StatusText(e.HTTPStatusCode)
	}
	const limit = 300
	if len(body) > limit {
		body = body[:limit] + "…"
	}
	return body
}

// isTransportError reports whether err came from the HTTP round trip
// itself (bad URL, TLS, proxy…), as opposed to go-openai's own checks.
func isTransportError(err error) bool {
	var urlErr *url.Error
	var opErr *net.OpError
	return errors.As(err, &urlErr) || errors.As(err, &opErr)
}

// describeBody explains an unreadable reply from its first bytes: the
// message of an error object, else the start of the text.
func describeBody(head []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(head, &e) == nil && e.Error.Message != "" {
		return ": " + e.Error.Message
	}
	text := strings.Join(strings.Fields(string(head)), " ")
	if text == "" {
		return ": empty body"
	}
	const limit = 80
	if len(text) > limit {
		text = strings.ToValidUTF8(text[:limit], "") + "…"
	}
	return fmt.Sprintf(" (body starts %q)", text)
}
