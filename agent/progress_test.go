package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/tools"
)

func TestLoopStreamsToolOutput(t *testing.T) {
	t.Parallel()
	streamer := tools.Tool{
		Spec: tools.Spec{Name: "stream", Summary: "streams", Parameters: json.RawMessage(`{"type":"object"}`), Groups: []string{tools.GroupBase}},
		Run: func(ctx context.Context, _ json.RawMessage) tools.Result {
			report := tools.ProgressFrom(ctx)
			if report == nil {
				return tools.Fail("no progress func in the tool's context")
			}
			report("one\n")
			report("two\n")
			return tools.OK("one\ntwo\n")
		},
	}
	reg := tools.NewRegistry()
	if err := reg.Register(streamer); err != nil {
		t.Fatal(err)
	}
	client := &fakeClient{replies: []llm.Message{reply(call("s1", "stream", `{}`), call("s2", "stream", `{}`)), text("ok")}}
	loop, rec := newLoop(t, client, reg)
	if _, err := loop.Run(context.Background(), "implementation", nil, reg.Specs()); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rec.Events() {
		switch e := e.(type) {
		case events.ToolOutput:
			got = append(got, "out "+e.ID+" "+strings.TrimSpace(e.Text))
		case events.ToolCall:
			got = append(got, "call "+e.ID)
		case events.ToolResult:
			got = append(got, "result "+e.ID+" "+strings.ReplaceAll(e.Output+e.Error, "\n", ","))
		}
	}
	want := "call s1|out s1 one|out s1 two|result s1 one,two,|call s2|out s2 one|out s2 two|result s2 one,two,"
	if strings.Join(got, "|") != want {
		t.Fatalf("events\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}
