package approval

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a goroutine-safe output for the prompter.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestTerminalPrompter(t *testing.T) {
	t.Parallel()
	choices := []string{"y", "n", "c"}
	tests := []struct {
		name    string
		input   string
		want    string
		wantErr error
		wantOut string
	}{
		{"yes", "y\n", "y", nil, "Q? "},
		{"case-insensitive", "C\n", "c", nil, "Q? "},
		{"spaces and CRLF", "  n \r\n", "n", nil, "Q? "},
		{"word", "Yes\n", "y", nil, "Q? "},
		{"re-asks on invalid input", "maybe\n\nn\n", "n", nil, "Q? Please answer y, n or c: Please answer y, n or c: "},
		{"last line without newline", "y", "y", nil, "Q? "},
		{"EOF", "", "", io.EOF, "Q? \n"},
		{"EOF after invalid input", "what\n", "", io.EOF, "Q? Please answer y, n or c: \n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := &syncBuffer{}
			p := NewTerminalPrompter(strings.NewReader(tt.input), out)
			got, err := p.Ask(context.Background(), "Q?", choices)
			if got != tt.want || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Errorf("Ask = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
			if out.String() != tt.wantOut {
				t.Errorf("printed %q, want %q", out.String(), tt.wantOut)
			}
		})
	}
}

func TestTerminalPrompterSequence(t *testing.T) {
	t.Parallel()
	p := NewTerminalPrompter(strings.NewReader("y\nbad\na\n"), io.Discard)
	ctx := context.Background()
	for i, want := range []string{"y", "a"} {
		got, err := p.Ask(ctx, "Run tests? (y/n/a)", []string{"y", "n", "a"})
		if err != nil || got != want {
			t.Fatalf("question %d: %q, %v; want %q", i+1, got, err, want)
		}
	}
	if _, err := p.Ask(ctx, "again?", []string{"y", "n"}); !errors.Is(err, io.EOF) {
		t.Errorf("after the input ended: %v, want EOF", err)
	}
}

func TestTerminalPrompterCancel(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	p := NewTerminalPrompter(pr, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := p.Ask(ctx, "Q?", []string{"y", "n"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// A line typed after the cancellation answers the next question.
	go func() { _, _ = pw.Write([]byte("n\n")) }()
	got, err := p.Ask(context.Background(), "Q?", []string{"y", "n"})
	if err != nil || got != "n" {
		t.Errorf("next question: %q, %v", got, err)
	}
	if _, err := p.Ask(ctx, "Q?", []string{"y"}); !errors.Is(err, context.Canceled) {
		t.Errorf("an already cancelled context: %v", err)
	}
}

func TestAskRunTests(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		input   string
		want    TestAnswer
		wantErr bool
	}{
		{"yes", "y\n", TestYes, false},
		{"no", "N\n", TestNo, false},
		{"always", "a\n", TestAlways, false},
		{"EOF is no", "", TestNo, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := &syncBuffer{}
			got, err := AskRunTests(context.Background(), NewTerminalPrompter(strings.NewReader(tt.input), out))
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("AskRunTests = %v, %v; want %v", got, err, tt.want)
			}
			if !strings.HasPrefix(out.String(), RunTestsQuestion+" ") {
				t.Errorf("printed %q", out.String())
			}
		})
	}
	t.Run("prompter error", func(t *testing.T) {
		t.Parallel()
		_, err := AskRunTests(context.Background(), &fakePrompter{errs: []error{errors.New("broken")}})
		if err == nil || !strings.Contains(err.Error(), "broken") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestGateWithTerminalPrompter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		input      string
		wantAllow  bool
		wantCowboy bool
	}{
		{"y\n", true, false},
		{"n\n", false, false},
		{"c\n", true, true},
		{"", false, false}, // EOF is no
	}
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.input), func(t *testing.T) {
			t.Parallel()
			out := &syncBuffer{}
			g := NewGate(NewTerminalPrompter(strings.NewReader(tt.input), out), nil, Options{Interactive: true})
			d, err := g.Check(context.Background(), shellSpec, shellArgs("make build"))
			if err != nil || d.Allow != tt.wantAllow || g.Cowboy() != tt.wantCowboy {
				t.Errorf("got %+v, %v, cowboy %v", d, err, g.Cowboy())
			}
			if !tt.wantAllow && !strings.HasPrefix(d.Reason, CancelledByUser) {
				t.Errorf("reason %q", d.Reason)
			}
			if !strings.Contains(out.String(), "  make build\n"+ExecuteQuestion+" ") {
				t.Errorf("printed %q", out.String())
			}
		})
	}
}
