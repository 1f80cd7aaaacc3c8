package human

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reach-agent/reach/tools"
)

// ttyInput plays chunks like a terminal: a nil chunk is one Ctrl+D (a
// read of 0 bytes and io.EOF), after which reading goes on.
type ttyInput struct {
	mu     sync.Mutex
	chunks [][]byte
}

func (r *ttyInput) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.chunks) == 0 {
		return 0, io.ErrClosedPipe
	}
	c := r.chunks[0]
	r.chunks = r.chunks[1:]
	if c == nil {
		return 0, io.EOF
	}
	return copy(p, c), nil
}

func tty(parts ...string) *ttyInput {
	r := &ttyInput{}
	for _, p := range parts {
		if p == "^D" {
			r.chunks = append(r.chunks, nil)
		} else {
			r.chunks = append(r.chunks, []byte(p))
		}
	}
	return r
}

type memStore struct {
	got []string
}

func (m *memStore) AddHumanInput(_ context.Context, content, source string) (int64, error) {
	m.got = append(m.got, source+":"+content)
	return int64(len(m.got)), nil
}

func TestAskHuman(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		console func(out io.Writer) Reader
		ok      bool
		want    string
		stored  []string
	}{
		{"multi-line answer then Ctrl+D", func(out io.Writer) Reader {
			return NewConsole(tty("use the v2 API\n", "and keep v1\n", "^D"), out, true)
		}, true, "use the v2 API\nand keep v1", []string{"hil:use the v2 API\nand keep v1"}},
		{"empty answer", func(out io.Writer) Reader { return NewConsole(tty("\n", "^D"), out, true) }, true, "empty answer", nil},
		{"no terminal", func(io.Writer) Reader { return nil }, false, "no human is available", nil},
		{"input gone", func(out io.Writer) Reader { return NewConsole(strings.NewReader(""), out, false) }, false, "the human is gone", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			store := &memStore{}
			reg := tools.NewRegistry()
			if err := reg.Register(Tool(tt.console(&out), store, "hil")); err != nil {
				t.Fatal(err)
			}
			ex := &tools.Executor{Registry: reg}
			res := ex.Execute(context.Background(), tools.Call{Name: "ask_human", Arguments: `{"question":"Which API?"}`}, []string{"ask_human"})
			if res.Success != tt.ok || !strings.Contains(res.Output+res.Error, tt.want) {
				t.Fatalf("got %+v, want success=%v with %q", res, tt.ok, tt.want)
			}
			if strings.Join(store.got, "|") != strings.Join(tt.stored, "|") {
				t.Fatalf("stored %q, want %q", store.got, tt.stored)
			}
			if tt.ok && !strings.Contains(out.String(), "Which API?") {
				t.Fatalf("question not shown: %q", out.String())
			}
		})
	}
}

func TestConsoleSharesTheTerminal(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	c := NewConsole(tty("maybe\n", "Y\n", "first line\n", "^D", "n\n", "^D"), &out, true)
	ctx := context.Background()
	if got, err := c.Ask(ctx, "Execute? (y/n)", []string{"y", "n"}); err != nil || got != "y" {
		t.Fatalf("ask: %q %v", got, err)
	}
	if msg, err := c.ReadMessage(ctx, "Your answer:"); err != nil || msg != "first line" {
		t.Fatalf("message after a choice: %q %v", msg, err)
	}
	if got, err := c.Ask(ctx, "Again?", []string{"y", "n"}); err != nil || got != "n" {
		t.Fatalf("ask after Ctrl+D: %q %v", got, err)
	}
	if _, err := c.Ask(ctx, "Once more?", []string{"y", "n"}); !errors.Is(err, io.EOF) {
		t.Fatalf("Ctrl+D at a choice: %v", err)
	}
	if !strings.Contains(out.String(), "Please answer y/n") {
		t.Fatalf("bad choice not re-asked: %q", out.String())
	}
}

func TestConsoleHonoursCancel(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	c := NewConsole(pr, io.Discard, true)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.ReadMessage(ctx, "q"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
}
