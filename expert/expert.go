// Package expert is reach's escalation path to a stronger model: the agent
// gathers context with emit_expert_context and asks one question with
// ask_expert; the expert sees only what is assembled for it.
package expert

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// MaxFileLines caps the related file contents put into one question.
const MaxFileLines = 10_000

// Timeout is how long one ask_expert call may take.
const Timeout = 5 * time.Minute

// Brake ends every question: strong reasoning models tend to overthink.
const Brake = "**DO NOT OVERTHINK**\n**DO NOT OVERCOMPLICATE**"

// Source is the session memory the question is assembled from;
// *memory.Session implements it.
type Source interface {
	RelatedFiles(ctx context.Context) []string
	ResearchNotes() []string
	KeySnippets() []memory.Snippet
	KeyFacts() []memory.Fact
}

// Expert holds the additional context of one session and asks the expert
// model. It is safe for concurrent use.
type Expert struct {
	Client llm.Client
	Model  string
	Root   *workspace.Root
	Memory Source
	// OnUsage, when set, is told what each answer cost (the run's meter).
	OnUsage func(ctx context.Context, resp llm.Response)

	mu    sync.Mutex
	extra []string // emit_expert_context, not yet sent
}

// AddContext appends text to the next question's additional context.
func (e *Expert) AddContext(text string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.extra = append(e.extra, strings.TrimSpace(text))
	return len(e.extra)
}

// pending returns the additional context not yet sent.
func (e *Expert) pending() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.extra...)
}

// consume drops the first n entries of the additional context, the ones
// that were sent; entries added meanwhile stay for the next question.
func (e *Expert) consume(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.extra = append([]string(nil), e.extra[min(n, len(e.extra)):]...)
}

// Question assembles the expert's question in SPEC §6 order: related
// files, research notes, key snippets, key facts, additional context, the
// question and the brake. Empty sections are left out.
func (e *Expert) Question(ctx context.Context, question string, extra []string) string {
	var parts []string
	add := func(title, body string) {
		if strings.TrimSpace(body) != "" {
			parts = append(parts, "# "+title, strings.TrimRight(body, "\n"))
		}
	}
	if e.Memory != nil {
		add("Related Files", e.relatedContents(ctx))
		add("Research Notes", bullets(e.Memory.ResearchNotes()))
		var snips []string
		for _, sn := range e.Memory.KeySnippets() {
			snips = append(snips, memory.FormatSnippet(sn))
		}
		add("Key Snippets", strings.Join(snips, "\n\n"))
		var facts []string
		for _, f := range e.Memory.KeyFacts() {
			facts = append(facts, f.Content)
		}
		add("Key Facts About This Project", bullets(facts))
	}
	add("Additional Context", strings.Join(extra, "\n\n"))
	parts = append(parts, "# Question", strings.TrimSpace(question), Brake)
	return strings.Join(parts, "\n\n")
}

// relatedContents reads the related files, at most MaxFileLines lines in
// all; a file that cannot be read is named with the reason.
func (e *Expert) relatedContents(ctx context.Context) string {
	var b strings.Builder
	left := MaxFileLines
	for _, rel := range e.Memory.RelatedFiles(ctx) {
		if left <= 0 {
			fmt.Fprintf(&b, "[%s and later files left out: the %d-line limit was reached]\n", rel, MaxFileLines)
			break
		}
		text, n, cut, err := e.readLines(rel, left)
		if err != nil {
			fmt.Fprintf(&b, "## %s\n(could not be read: %v)\n\n", rel, err)
			continue
		}
		left -= n
		fmt.Fprintf(&b, "## %s\n```\n%s```\n", rel, text)
		if cut {
			fmt.Fprintf(&b, "[%s truncated: the %d-line limit was reached]\n", rel, MaxFileLines)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (e *Expert) readLines(rel string, max int) (string, int, bool, error) {
	if e.Root == nil {
		return "", 0, false, errors.New("no project root")
	}
	abs, err := e.Root.Resolve(rel)
	if err != nil {
		return "", 0, false, err
	}
	f, err := os.Open(abs)
	if err != nil {
		return "", 0, false, err
	}
	defer f.Close()
	var b strings.Builder
	r := bufio.NewReader(f)
	n := 0
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			if n == max {
				return b.String(), n, true, nil
			}
			if !strings.HasSuffix(line, "\n") {
				line += "\n"
			}
			b.WriteString(line)
			n++
		}
		if err != nil {
			return b.String(), n, false, nil
		}
	}
}

func bullets(xs []string) string {
	var b strings.Builder
	for _, x := range xs {
		fmt.Fprintf(&b, "- %s\n", strings.TrimSpace(x))
	}
	return b.String()
}

// systemPrompt tells the expert who is asking.
const systemPrompt = `You are an expert software engineer consulted by a coding agent that is working in a repository.
You see only the context below; you cannot run tools or look anything up. Answer the question directly and
concretely (files, functions, the change to make, the cause of the bug). If the context is not enough to
answer, say exactly what is missing.`

// Ask sends question with the assembled context to the expert at
// temperature 0. The additional context is cleared only once the expert
// has answered.
func (e *Expert) Ask(ctx context.Context, question string) (string, error) {
	if strings.TrimSpace(question) == "" {
		return "", errors.New("empty question")
	}
	extra := e.pending()
	zero := float32(0)
	req := llm.Request{
		Model:       e.Model,
		Temperature: &zero,
		Messages: []llm.Message{
			{Role: llm.System, Content: systemPrompt},
			{Role: llm.User, Content: e.Question(ctx, question, extra)},
		},
	}
	resp, err := e.Client.Complete(ctx, req, nil)
	if err != nil {
		return "", err
	}
	if e.OnUsage != nil {
		e.OnUsage(ctx, resp)
	}
	answer := strings.TrimSpace(resp.Message.Content)
	if answer == "" {
		return "", errors.New("the expert returned an empty answer")
	}
	e.consume(len(extra))
	return answer, nil
}

// Tools returns emit_expert_context and ask_expert, offered in every phase.
func (e *Expert) Tools() []tools.Tool {
	return []tools.Tool{
		{
			Spec: tools.Spec{
				Name:       "emit_expert_context",
				Summary:    "Add context for the next ask_expert question: the code, logs or constraints the expert needs, since it sees nothing else besides the related files and memory. Dense, under 500 words per call; may be called several times.",
				Parameters: json.RawMessage(`{"type":"object","properties":{"context":{"type":"string","minLength":1,"description":"The context to add."}},"required":["context"],"additionalProperties":false}`),
				SideEffect: tools.Write,
				Groups:     []string{tools.GroupBase},
			},
			Run: func(_ context.Context, raw json.RawMessage) tools.Result {
				args, err := tools.Decode[struct {
					Context string `json:"context"`
				}](raw)
				if err != nil {
					return tools.Fail(err.Error())
				}
				if strings.TrimSpace(args.Context) == "" {
					return tools.Fail("empty context: give the text the expert should see")
				}
				n := e.AddContext(args.Context)
				return tools.OK(fmt.Sprintf("Context added (%d item(s) waiting for the next ask_expert).", n))
			},
		},
		{
			Spec: tools.Spec{
				Name:       "ask_expert",
				Summary:    "Ask a stronger reasoning model one hard question (a subtle bug, a design choice, a tricky algorithm). It sees the related files, research notes, key snippets, key facts and the context from emit_expert_context, nothing else, and cannot look things up.",
				Parameters: json.RawMessage(`{"type":"object","properties":{"question":{"type":"string","minLength":1,"description":"One precise question."}},"required":["question"],"additionalProperties":false}`),
				SideEffect: tools.Network,
				Timeout:    Timeout,
				Groups:     []string{tools.GroupBase},
			},
			Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
				args, err := tools.Decode[struct {
					Question string `json:"question"`
				}](raw)
				if err != nil {
					return tools.Fail(err.Error())
				}
				answer, err := e.Ask(ctx, args.Question)
				if err != nil {
					return tools.Fail(fmt.Sprintf("the expert could not answer: %v. Your context is kept for the next try; go on without the expert if it keeps failing.", err))
				}
				return tools.OK(answer)
			},
		},
	}
}
