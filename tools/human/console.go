// Package human is the human in the loop: the ask_human tool and the
// Console that reads a person's answers, choices and chat messages from
// the terminal.
package human

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Console reads from one input stream for every question a run puts to
// the human: multi-line answers (ended with Ctrl+D, i.e. end of input) and
// one-of-several choices. On a terminal, end of input ends one answer and
// the next question reads on; on a pipe it ends everything.
// It is safe for concurrent use; questions are put one at a time.
type Console struct {
	in       *bufio.Reader
	out      io.Writer
	terminal bool

	start  sync.Once
	events chan input
	done   chan struct{} // closed when the input is gone for good
	err    error         // why; read after done is closed
	asking chan struct{}
}

// input is one thing read: a line, or the end of an answer.
type input struct {
	line string
	eof  bool
}

// NewConsole reads from in and writes prompts to out. terminal says
// whether in is a terminal, where Ctrl+D ends one answer only.
func NewConsole(in io.Reader, out io.Writer, terminal bool) *Console {
	return &Console{
		in: bufio.NewReader(in), out: out, terminal: terminal,
		events: make(chan input), done: make(chan struct{}), asking: make(chan struct{}, 1),
	}
}

func (c *Console) read() {
	for {
		line, err := c.in.ReadString('\n')
		if line != "" {
			c.events <- input{line: line}
		}
		switch {
		case errors.Is(err, io.EOF) && c.terminal:
			c.events <- input{eof: true}
		case err != nil:
			c.err = err
			close(c.done)
			return
		}
	}
}

func (c *Console) lock(ctx context.Context) (func(), error) {
	select {
	case c.asking <- struct{}{}:
		c.start.Do(func() { go c.read() })
		return func() { <-c.asking }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// ReadMessage prints prompt and reads a multi-line message up to the end
// of input (Ctrl+D on a terminal). It returns io.EOF when the input is
// gone and nothing was typed.
func (c *Console) ReadMessage(ctx context.Context, prompt string) (string, error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := fmt.Fprintf(c.out, "%s\n(finish with Ctrl+D on an empty line)\n> ", prompt); err != nil {
		return "", fmt.Errorf("write prompt: %w", err)
	}
	var b strings.Builder
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(c.out)
			return "", ctx.Err()
		case in := <-c.events:
			if in.eof {
				fmt.Fprintln(c.out)
				return strings.TrimRight(b.String(), "\n"), nil
			}
			b.WriteString(in.line)
		case <-c.done:
			if b.Len() == 0 {
				return "", c.err
			}
			return strings.TrimRight(b.String(), "\n"), nil
		}
	}
}

// Ask prints question and reads lines until one is among choices
// (case-insensitive; "yes" and "no" stand for "y" and "n"). It implements
// approval.Prompter, so approvals and ask_human share the terminal.
func (c *Console) Ask(ctx context.Context, question string, choices []string) (string, error) {
	if len(choices) == 0 {
		return "", errors.New("ask: no choices to offer")
	}
	unlock, err := c.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := fmt.Fprintf(c.out, "%s ", question); err != nil {
		return "", fmt.Errorf("ask: write question: %w", err)
	}
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(c.out)
			return "", ctx.Err()
		case in := <-c.events:
			if in.eof {
				fmt.Fprintln(c.out)
				return "", fmt.Errorf("ask: %w", io.EOF)
			}
			if choice, ok := match(in.line, choices); ok {
				return choice, nil
			}
			fmt.Fprintf(c.out, "Please answer %s: ", strings.Join(choices, "/"))
		case <-c.done:
			fmt.Fprintln(c.out)
			return "", fmt.Errorf("ask: read answer: %w", c.err)
		}
	}
}

func match(line string, choices []string) (string, bool) {
	a := strings.ToLower(strings.TrimSpace(line))
	switch a {
	case "yes":
		a = "y"
	case "no":
		a = "n"
	}
	for _, c := range choices {
		if a != "" && strings.ToLower(c) == a {
			return c, true
		}
	}
	return "", false
}
