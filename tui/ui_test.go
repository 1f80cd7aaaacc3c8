package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/events"
)

// runUI starts a UI reading keys from the returned writer.
func runUI(t *testing.T, hooks Hooks) (*UI, io.Writer, chan error) {
	t.Helper()
	keys, in := io.Pipe()
	u := New(Options{In: keys, Out: io.Discard, Width: 80, Height: 24, NoColor: true, Hooks: hooks})
	done := make(chan error, 1)
	go func() { done <- u.Run() }()
	t.Cleanup(func() {
		in.Close()
		u.prog.Kill()
		<-u.done
	})
	return u, in, done
}

func TestUIAskAnsweredByKey(t *testing.T) {
	u, keys, done := runUI(t, Hooks{})
	u.Emit(events.ToolCall{ID: "1", Name: "run_shell_command", Arguments: `{"command":"ls"}`})
	answers := make(chan string, 1)
	go func() {
		a, err := u.Ask(context.Background(), "Execute this command?", []string{"y", "n", "c"})
		if err != nil {
			t.Errorf("ask: %v", err)
		}
		answers <- a
	}()
	// Keys that are not choices are ignored; "n" answers.
	time.Sleep(100 * time.Millisecond)
	io.WriteString(keys, "xn")
	select {
	case a := <-answers:
		if a != "n" {
			t.Fatalf("answer = %q, want n", a)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer")
	}
	u.Emit(events.Result{Status: "success"})
	u.Finish()
	time.Sleep(50 * time.Millisecond)
	io.WriteString(keys, "q")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("q after the run did not quit")
	}
	// Nobody can answer once the UI is gone.
	if _, err := u.AskText(context.Background(), "still there?"); !errors.Is(err, io.EOF) {
		t.Fatalf("ask after quit: %v, want io.EOF", err)
	}
}

func TestUIAskCancelled(t *testing.T) {
	u, _, _ := runUI(t, Hooks{})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := u.AskText(ctx, "why?"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's", err)
	}
}

func TestUIEscAndDoubleCtrlC(t *testing.T) {
	interrupted, quit := make(chan struct{}, 1), make(chan struct{}, 1)
	u, keys, done := runUI(t, Hooks{
		Interrupt: func() { interrupted <- struct{}{} },
		Quit:      func() { quit <- struct{}{} },
	})
	u.Emit(events.TextDelta{Text: "working on it"})
	time.Sleep(50 * time.Millisecond)
	io.WriteString(keys, "\x1b")
	select {
	case <-interrupted:
	case <-time.After(5 * time.Second):
		t.Fatal("esc did not interrupt")
	}
	io.WriteString(keys, "\x03")
	time.Sleep(50 * time.Millisecond)
	select {
	case <-quit:
		t.Fatal("one ctrl+c quit")
	default:
	}
	io.WriteString(keys, "\x03")
	select {
	case <-quit:
	case <-time.After(5 * time.Second):
		t.Fatal("ctrl+c twice did not quit")
	}
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	if s := u.model.render(); !strings.Contains(s, "(interrupted)") {
		t.Errorf("the interrupted message is not marked:\n%s", s)
	}
}

func TestUIReadMessageUsesTheEditor(t *testing.T) {
	u, keys, _ := runUI(t, Hooks{})
	answers := make(chan string, 1)
	go func() {
		a, err := u.ReadMessage(context.Background(), "\nThe agent asks:\nWhich port?")
		if err != nil {
			t.Errorf("read: %v", err)
		}
		answers <- a
	}()
	time.Sleep(100 * time.Millisecond)
	io.WriteString(keys, "8080\x04") // Ctrl+D sends
	select {
	case a := <-answers:
		if strings.TrimSpace(a) != "8080" {
			t.Fatalf("answer = %q, want 8080", a)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer")
	}
}
