package memory

import (
	"context"
	"reflect"
	"testing"
	"time"
)

func TestChatTranscript(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	ss := newSession(t, s, "chat")
	other := newSession(t, s, "another chat")
	say := func(ss *Session, msg, source string, replies ...string) {
		t.Helper()
		hid, err := ss.AddHumanInput(ctx, msg, source)
		if err != nil {
			t.Fatal(err)
		}
		var steps []Step
		for _, r := range replies {
			steps = append(steps, Step{Kind: KindModelTurn, Output: r, HumanInput: hid, At: time.Now()},
				Step{Kind: KindToolCall, Name: "read_file_tool", Output: "file text", HumanInput: hid, At: time.Now()})
		}
		if err := s.AppendTrajectory(ctx, ss.ID(), steps); err != nil {
			t.Fatal(err)
		}
	}
	say(ss, "what is in a.txt?", "chat", "", "a.txt holds one line.") // a tool turn, then the answer
	say(other, "unrelated", "chat", "elsewhere")                      // another session
	say(ss, "should I delete it?", "hil", "asked the human")          // ask_human, not a chat message
	say(ss, "and b.txt?", "chat")                                     // killed before any reply
	say(ss, "thanks", "chat", "first draft", "You're welcome.")       // the last reply counts

	got, err := s.ChatTranscript(ctx, ss.ID())
	if err != nil {
		t.Fatal(err)
	}
	want := []Exchange{
		{Human: "what is in a.txt?", Reply: "a.txt holds one line."},
		{Human: "and b.txt?"},
		{Human: "thanks", Reply: "You're welcome."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("transcript:\n got %+v\nwant %+v", got, want)
	}
	if none, err := s.ChatTranscript(ctx, 999); err != nil || len(none) != 0 {
		t.Fatalf("unknown session: %v %v", none, err)
	}
}
