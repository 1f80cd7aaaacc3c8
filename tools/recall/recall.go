// Package recall holds the tools with which the model records what it
// learns into the session's memory: key facts, key snippets and related
// files (the files the expert and aider are shown).
package recall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// Store keeps what the tools record; *memory.Session implements it.
type Store interface {
	AddKeyFacts(ctx context.Context, facts []string) ([]int64, error)
	AddKeySnippet(ctx context.Context, sn memory.Snippet) (int64, error)
	AddRelatedFiles(ctx context.Context, paths []string) ([]string, error)
}

// Tools returns emit_key_facts, emit_key_snippet and emit_related_files,
// offered in every phase.
func Tools(root *workspace.Root, store Store) []tools.Tool {
	return []tools.Tool{KeyFacts(store), KeySnippet(root, store), RelatedFiles(root, store)}
}

// KeyFacts is emit_key_facts.
func KeyFacts(store Store) tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{
			Name:       "emit_key_facts",
			Summary:    "Remember facts about the project that later steps and later sessions need (conventions, how to build and test, where things live, constraints the user gave). One short self-contained sentence per fact; returns their ids.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"facts":{"type":"array","minItems":1,"items":{"type":"string","minLength":1},"description":"The facts, one sentence each."}},"required":["facts"],"additionalProperties":false}`),
			SideEffect: tools.Write,
			Groups:     []string{tools.GroupBase},
			Backend:    "builtin",
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			args, err := tools.Decode[struct {
				Facts []string `json:"facts"`
			}](raw)
			if err != nil {
				return tools.Fail(err.Error())
			}
			ids, err := store.AddKeyFacts(ctx, args.Facts)
			if err != nil {
				return tools.Fail(fmt.Sprintf("store key facts: %v", err))
			}
			parts := make([]string, len(ids))
			for i, id := range ids {
				parts[i] = fmt.Sprintf("#%d", id)
			}
			return tools.OK(fmt.Sprintf("Stored %d key fact(s): %s.", len(ids), strings.Join(parts, ", ")))
		},
	}
}

// KeySnippet is emit_key_snippet.
func KeySnippet(root *workspace.Root, store Store) tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{
			Name:       "emit_key_snippet",
			Summary:    "Remember a short piece of code that matters for the task (a signature, a config block, the lines to change) with its file, line and why it matters, so later steps and the expert see it without rereading the file.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"filepath":{"type":"string","minLength":1,"description":"Path relative to the project root."},"line_number":{"type":"integer","minimum":1,"description":"Line where the snippet starts."},"snippet":{"type":"string","minLength":1,"description":"The code, verbatim."},"description":{"type":"string","description":"Why it matters."}},"required":["filepath","line_number","snippet"],"additionalProperties":false}`),
			SideEffect: tools.Write,
			Groups:     []string{tools.GroupBase},
			Backend:    "builtin",
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			args, err := tools.Decode[struct {
				Filepath    string `json:"filepath"`
				LineNumber  int    `json:"line_number"`
				Snippet     string `json:"snippet"`
				Description string `json:"description"`
			}](raw)
			if err != nil {
				return tools.Fail(err.Error())
			}
			abs, err := root.Resolve(args.Filepath)
			if err != nil {
				return tools.Fail(err.Error())
			}
			rel := root.Rel(abs)
			id, err := store.AddKeySnippet(ctx, memory.Snippet{Filepath: rel, LineNumber: args.LineNumber, Snippet: args.Snippet, Description: strings.TrimSpace(args.Description)})
			if err != nil {
				return tools.Fail(fmt.Sprintf("store key snippet: %v", err))
			}
			return tools.OK(fmt.Sprintf("Stored key snippet #%d (%s:%d).", id, rel, args.LineNumber))
		},
	}
}

// RelatedFiles is emit_related_files.
func RelatedFiles(root *workspace.Root, store Store) tools.Tool {
	return tools.Tool{
		Spec: tools.Spec{
			Name:       "emit_related_files",
			Summary:    "Register files that matter for the task so the expert (and aider) are shown their contents. Give existing project files; missing ones are reported and skipped.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"files":{"type":"array","minItems":1,"items":{"type":"string","minLength":1},"description":"Paths relative to the project root."}},"required":["files"],"additionalProperties":false}`),
			SideEffect: tools.Write,
			Groups:     []string{tools.GroupBase},
			Backend:    "builtin",
		},
		Run: func(ctx context.Context, raw json.RawMessage) tools.Result {
			args, err := tools.Decode[struct {
				Files []string `json:"files"`
			}](raw)
			if err != nil {
				return tools.Fail(err.Error())
			}
			var ok, problems []string
			for _, f := range args.Files {
				rel, err := existingFile(root, f)
				if err != nil {
					problems = append(problems, err.Error())
					continue
				}
				ok = append(ok, rel)
			}
			if len(ok) == 0 {
				return tools.Fail("no file registered: " + strings.Join(problems, "; "))
			}
			added, err := store.AddRelatedFiles(ctx, ok)
			if err != nil {
				return tools.Fail(fmt.Sprintf("store related files: %v", err))
			}
			var b strings.Builder
			switch {
			case len(added) > 0:
				fmt.Fprintf(&b, "Registered %d related file(s): %s.", len(added), strings.Join(added, ", "))
			default:
				b.WriteString("These files were already registered.")
			}
			if len(problems) > 0 {
				fmt.Fprintf(&b, " Skipped: %s.", strings.Join(problems, "; "))
			}
			return tools.OK(b.String())
		},
	}
}

// existingFile resolves p inside root and checks it is a regular file.
func existingFile(root *workspace.Root, p string) (string, error) {
	abs, err := root.Resolve(p)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s does not exist", p)
	case err != nil:
		return "", fmt.Errorf("%s: %w", p, err)
	case fi.IsDir():
		return "", fmt.Errorf("%s is a directory, give files", p)
	}
	return root.Rel(abs), nil
}
