package llmtest_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/llm/llmtest"
)

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sseEvents reads the data events of a stream, [DONE] included.
func sseEvents(t *testing.T, r io.Reader) []string {
	t.Helper()
	var events []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			events = append(events, data)
		}
	}
	return events
}

func TestServerStreamsChunkedToolCalls(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Turn{
		Text: "ok", ToolCalls: []llm.ToolCall{{Name: "f", Arguments: `{"a":1}`}}, ChunkSize: 2,
		Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 3},
	})
	resp := post(t, srv.URL(), `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f"}}]}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
	events := sseEvents(t, resp.Body)
	// role, "ok", call header, 4 argument pieces, finish, usage, [DONE]
	if len(events) != 10 || events[len(events)-1] != "[DONE]" {
		t.Fatalf("events = %q", events)
	}
	var args strings.Builder
	for _, ev := range events[2:7] {
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Index    *int   `json:"index"`
						ID       string `json:"id"`
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(ev), &c); err != nil {
			t.Fatalf("event %s: %v", ev, err)
		}
		tc := c.Choices[0].Delta.ToolCalls[0]
		if tc.Index == nil || *tc.Index != 0 {
			t.Errorf("event %s: want index 0", ev)
		}
		args.WriteString(tc.Function.Arguments)
	}
	if args.String() != `{"a":1}` {
		t.Errorf("reassembled arguments = %q", args.String())
	}
	if !strings.Contains(events[2], `"id":"call_1_0"`) || !strings.Contains(events[2], `"name":"f"`) {
		t.Errorf("first call delta %s lacks the generated id or the name", events[2])
	}
	if !strings.Contains(events[7], `"finish_reason":"tool_calls"`) {
		t.Errorf("finish event = %s", events[7])
	}
	if !strings.Contains(events[8], `"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}`) {
		t.Errorf("usage event = %s", events[8])
	}
	got := srv.Requests()
	if len(got) != 1 || got[0].Model != "m" || !got[0].Stream || !got[0].IncludeUsage || strings.Join(got[0].Tools, ",") != "f" || got[0].LastMessage().Content != "hi" {
		t.Errorf("recorded request = %+v", got)
	}
}

func TestServerAnswersPlainJSON(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Calls(llmtest.Call("c1", "f", `{}`)))
	resp := post(t, srv.URL(), `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"multi"},{"type":"text","text":"part"}]}]}`)
	var out struct {
		Choices []struct {
			Message struct {
				Role      string
				ToolCalls []struct {
					ID       string
					Type     string
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	c := out.Choices[0]
	if c.Message.Role != "assistant" || len(c.Message.ToolCalls) != 1 || c.Message.ToolCalls[0].ID != "c1" || c.Message.ToolCalls[0].Type != "function" || c.FinishReason != "tool_calls" {
		t.Errorf("reply = %+v", out)
	}
	if out.Usage.PromptTokens == 0 {
		t.Errorf("usage not estimated: %+v", out.Usage)
	}
	if got := srv.Requests()[0].LastMessage().Content; got != "multipart" {
		t.Errorf("content parts decoded as %q", got)
	}
}

func TestServerFaultsAndModels(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.RateLimited("3"), llmtest.Garbage())
	resp := post(t, srv.URL(), `{"model":"m","messages":[]}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || !strings.Contains(string(body), `"error"`) {
		t.Errorf("fault = %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	resp = post(t, srv.URL(), `{"model":"m","messages":[]}`)
	body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || json.Valid(body) || strings.HasPrefix(string(body), "data:") {
		t.Errorf("garbage = %d %s", resp.StatusCode, body)
	}
	mresp, err := http.Get(srv.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer mresp.Body.Close()
	body, _ = io.ReadAll(mresp.Body)
	if !strings.Contains(string(body), `"id":"test-model"`) {
		t.Errorf("models = %s", body)
	}
}

func TestScriptReportsExhaustion(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var problems []string
	script := llmtest.NewScript(llmtest.Dynamic(func(r llmtest.Request) llmtest.Turn {
		return llmtest.Reply("you said " + r.LastMessage().Content)
	}))
	script.OnProblem = func(msg string) {
		mu.Lock()
		problems = append(problems, msg)
		mu.Unlock()
	}
	srv := httptest.NewServer(script)
	defer srv.Close()
	defer script.Close()

	resp := post(t, srv.URL+"/v1", `{"model":"m","messages":[{"role":"user","content":"ping"}]}`)
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "you said ping") {
		t.Errorf("dynamic reply = %s", body)
	}
	resp = post(t, srv.URL+"/v1", `{"model":"m","messages":[{"role":"user","content":"again"}]}`)
	body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || !strings.Contains(string(body), "script exhausted") {
		t.Errorf("exhausted = %d %s", resp.StatusCode, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) != 1 || !strings.Contains(problems[0], "script exhausted") || !strings.Contains(problems[0], "again") {
		t.Errorf("problems = %q", problems)
	}
	if script.Remaining() != 0 || len(script.Requests()) != 2 || len(script.Problems()) != 1 {
		t.Errorf("remaining %d, requests %d, problems %d", script.Remaining(), len(script.Requests()), len(script.Problems()))
	}
}

func TestScriptCloseReleasesHang(t *testing.T) {
	t.Parallel()
	script := llmtest.NewScript(llmtest.Hang())
	srv := httptest.NewServer(script)
	done := make(chan int)
	go func() {
		resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
		if err != nil {
			done <- -1
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	for len(script.Requests()) == 0 {
		// wait until the request is hanging
		select {
		case code := <-done:
			t.Fatalf("hang answered early: %d", code)
		case <-time.After(time.Millisecond):
		}
	}
	script.Close()
	srv.Close() // returns only once the hanging handler has
	<-done
}
