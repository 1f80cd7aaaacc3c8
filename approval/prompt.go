package approval

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// TerminalPrompter asks questions on a line-based terminal: it prints the
// question, reads a line and re-asks until the answer is one of the
// choices (case-insensitive; "yes" and "no" count as "y" and "n").
// It is safe for concurrent use; questions are put one at a time.
type TerminalPrompter struct {
	in  *bufio.Reader
	out io.Writer

	start  sync.Once
	lines  chan string
	done   chan struct{} // closed when the input has ended
	err    error         // why it ended; read after done is closed
	asking chan struct{}
}

var _ Prompter = (*TerminalPrompter)(nil)

// NewTerminalPrompter returns a prompter reading answers from in and
// writing questions to out.
func NewTerminalPrompter(in io.Reader, out io.Writer) *TerminalPrompter {
	return &TerminalPrompter{
		in:     bufio.NewReader(in),
		out:    out,
		lines:  make(chan string),
		done:   make(chan struct{}),
		asking: make(chan struct{}, 1),
	}
}

// Ask implements Prompter. Reading happens in a goroutine so that a
// cancelled ctx returns at once; a line typed afterwards answers the next
// question.
func (p *TerminalPrompter) Ask(ctx context.Context, question string, choices []string) (string, error) {
	if len(choices) == 0 {
		return "", errors.New("ask: no choices to offer")
	}
	select {
	case p.asking <- struct{}{}:
		defer func() { <-p.asking }()
	case <-ctx.Done():
		return "", ctx.Err()
	}
	p.start.Do(func() { go p.read() })

	if _, err := fmt.Fprintf(p.out, "%s ", question); err != nil {
		return "", fmt.Errorf("ask: write question: %w", err)
	}
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(p.out)
			return "", ctx.Err()
		case line := <-p.lines:
			if c, ok := matchChoice(line, choices); ok {
				return c, nil
			}
			if _, err := fmt.Fprintf(p.out, "Please answer %s: ", orList(choices)); err != nil {
				return "", fmt.Errorf("ask: write question: %w", err)
			}
		case <-p.done:
			fmt.Fprintln(p.out)
			return "", fmt.Errorf("ask: read answer: %w", p.err)
		}
	}
}

// read feeds lines to Ask until the input ends.
func (p *TerminalPrompter) read() {
	for {
		line, err := p.in.ReadString('\n')
		if line != "" {
			p.lines <- line
		}
		if err != nil {
			p.err = err // io.EOF when the input was closed
			close(p.done)
			return
		}
	}
}

// matchChoice returns the choice a typed line stands for.
func matchChoice(line string, choices []string) (string, bool) {
	answer := strings.ToLower(strings.TrimSpace(line))
	if answer == "" {
		return "", false
	}
	for _, c := range choices {
		if strings.ToLower(c) == answer {
			return c, true
		}
	}
	words := map[string]string{"yes": "y", "no": "n"}
	if short, ok := words[answer]; ok {
		return matchChoice(short, choices)
	}
	return "", false
}

func orList(choices []string) string {
	if len(choices) == 1 {
		return choices[0]
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// TestAnswer is the answer to RunTestsQuestion.
type TestAnswer int

const (
	TestNo     TestAnswer = iota // do not run the tests this time
	TestYes                      // run them this time
	TestAlways                   // run them now and after every later task without asking
)

// RunTestsQuestion is asked before running --test-cmd (SPEC §2.1).
const RunTestsQuestion = "Run tests? (y/n/a)"

// AskRunTests asks p whether to run the tests. Closed input counts as no.
func AskRunTests(ctx context.Context, p Prompter) (TestAnswer, error) {
	answer, err := p.Ask(ctx, RunTestsQuestion, []string{"y", "n", "a"})
	switch {
	case err != nil && ctx.Err() != nil:
		return TestNo, ctx.Err()
	case errors.Is(err, io.EOF):
		return TestNo, nil
	case err != nil:
		return TestNo, fmt.Errorf("ask to run tests: %w", err)
	}
	switch strings.ToLower(answer) {
	case "y":
		return TestYes, nil
	case "a":
		return TestAlways, nil
	default:
		return TestNo, nil
	}
}
