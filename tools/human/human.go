package human

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/reach-agent/reach/tools"
)

// Reader reads one multi-line message from the human; *Console implements it.
type Reader interface {
	ReadMessage(ctx context.Context, prompt string) (string, error)
}

// Store keeps the human's answers; *memory.Session implements it.
type Store interface {
	AddHumanInput(ctx context.Context, content, source string) (int64, error)
}

// NoHuman is what ask_human says when nobody is at a terminal.
const NoHuman = "no human is available: reach is not running on a terminal, so nobody can answer. Decide on your own, choose the safest reasonable option and say in your final reply what you assumed."

// Tool is ask_human. reader nil means there is no terminal to ask on.
// source labels the stored answers: "hil" or "chat".
func Tool(reader Reader, store Store, source string) tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{
			Name:       "ask_human",
			Summary:    "Ask the human at the terminal a question and wait for the answer: for decisions that are theirs (requirements, trade-offs, anything ambiguous or risky), not for what the code can tell you.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"question":{"type":"string","minLength":1,"description":"The question, with the options when there are any."}},"required":["question"],"additionalProperties":false}`),
			SideEffect: tools.Read,
			Timeout:    24 * time.Hour, // a person may take their time
			Groups:     []string{tools.GroupBase},
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			args, err := tools.Decode[struct {
				Question string `json:"question"`
			}](raw)
			if err != nil {
				return tools.Fail(err.Error())
			}
			if reader == nil {
				return tools.Fail(NoHuman)
			}
			answer, err := reader.ReadMessage(ctx, "\nThe agent asks:\n"+strings.TrimSpace(args.Question))
			if err != nil {
				if ctx.Err() != nil {
					return tools.Fail("the question was interrupted")
				}
				return tools.Fail(fmt.Sprintf("no answer (%v): the human is gone. Decide on your own and say what you assumed.", err))
			}
			if strings.TrimSpace(answer) == "" {
				return tools.OK("The human gave an empty answer. Proceed with your best judgement and state your assumptions.")
			}
			out := answer
			if store != nil {
				if _, err := store.AddHumanInput(ctx, answer, source); err != nil {
					out += fmt.Sprintf("\n\n(note: the answer could not be saved: %v)", err)
				}
			}
			return tools.OK(out)
		},
	}
}
