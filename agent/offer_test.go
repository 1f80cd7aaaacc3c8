package agent

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/tools"
)

// offerFirst offers only the first tool of the phase at turn 1 and every
// tool afterwards, recording what it was told.
type offerFirst struct{ turns []OfferTurn }

func (o *offerFirst) Offer(_ context.Context, t OfferTurn) []tools.Spec {
	o.turns = append(o.turns, t)
	if t.Turn == 1 {
		return t.Tools[:1]
	}
	return t.Tools
}

func TestLoopAsksTheOfferEachTurn(t *testing.T) {
	t.Parallel()
	var got []string
	reg := tools.NewRegistry()
	if err := reg.Register(echoTool("a", &got), echoTool("b", &got)); err != nil {
		t.Fatal(err)
	}
	client := &fakeClient{replies: []llm.Message{
		reply(call("1", "b", `{"x":1}`)), // b is not offered yet: refused
		reply(call("2", "a", `{"x":2}`), call("3", "b", `{"x":3}`)),
		text("done"),
	}}
	l, _ := newLoop(t, client, reg)
	offer := &offerFirst{}
	l.Offer = offer
	out, err := l.Run(context.Background(), "research", []llm.Message{{Role: llm.User, Content: "go"}}, reg.Specs())
	if err != nil {
		t.Fatal(err)
	}
	if len(client.reqs) != 3 || len(client.reqs[0].Tools) != 1 || len(client.reqs[1].Tools) != 2 {
		t.Fatalf("tools per request: %d requests", len(client.reqs))
	}
	if !reflect.DeepEqual(got, []string{`{"x":2}`, `{"x":3}`}) {
		t.Errorf("ran %q; the call to b before it was offered must be refused", got)
	}
	if msgs := toolMessages(out.Messages); len(msgs) != 3 {
		t.Errorf("%d tool messages, want 3", len(msgs))
	}
	wantLast := [][]string{nil, {"b"}, {"a", "b"}}
	for i, turn := range offer.turns {
		if turn.Phase != "research" || turn.Turn != i+1 || !slices.Equal(turn.LastUsed, wantLast[i]) || len(turn.Tools) != 2 {
			t.Errorf("turn %d: %+v", i+1, turn)
		}
	}
}
