package memory

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Working-memory bounds: how much of the session's own memory and of
// earlier sessions goes into one prompt.
const (
	maxPromptFacts    = 40
	maxPromptSnippets = 12
	maxRecalled       = 8
)

// WorkingMemory renders what a phase's prompt should carry: the session's
// key facts, key snippets and related files (the most relevant to query
// when there are too many) and the long-term memory of earlier sessions
// recalled for query. It is empty when there is nothing to say.
func (ss *Session) WorkingMemory(ctx context.Context, query string) (string, error) {
	facts, snippets, files := ss.KeyFacts(), ss.KeySnippets(), ss.RelatedFiles(ctx)
	var b strings.Builder
	if len(facts) > 0 {
		docs := make([]Recalled, len(facts))
		for i, f := range facts {
			docs[i] = Recalled{Kind: "fact", Text: f.Content}
		}
		b.WriteString("## Key facts\n")
		for _, d := range pick(docs, query, maxPromptFacts) {
			fmt.Fprintf(&b, "- %s\n", d.Text)
		}
	}
	if len(snippets) > 0 {
		docs := make([]Recalled, len(snippets))
		for i, sn := range snippets {
			docs[i] = Recalled{Kind: "snippet", Text: formatSnippet(sn)}
		}
		b.WriteString("\n## Key snippets\n")
		for _, d := range pick(docs, query, maxPromptSnippets) {
			b.WriteString(d.Text + "\n")
		}
	}
	if len(files) > 0 {
		b.WriteString("\n## Related files\n")
		for _, f := range files {
			fmt.Fprintf(&b, "- %s\n", f)
		}
	}
	if ss.store != nil {
		rec, err := ss.store.Recall(ctx, ss.id, query, maxRecalled)
		if err != nil {
			return "", err
		}
		if len(rec) > 0 {
			b.WriteString("\n## From earlier sessions (recalled for this task; may be out of date)\n")
			for _, r := range rec {
				fmt.Fprintf(&b, "- (%s) %s\n", r.Kind, oneLine(r.Text, 600))
			}
		}
	}
	return strings.TrimSpace(b.String()), nil
}

// pick keeps all docs when they fit in limit, in their order; otherwise
// the most relevant to query, then the newest, in their original order.
func pick(docs []Recalled, query string, limit int) []Recalled {
	if len(docs) <= limit {
		return docs
	}
	keep := map[string]bool{}
	for _, d := range rank(docs, query, limit) {
		keep[d.Text] = true
	}
	for i := len(docs) - 1; i >= 0 && len(keep) < limit; i-- {
		keep[docs[i].Text] = true
	}
	var out []Recalled
	for _, d := range docs {
		if keep[d.Text] {
			out = append(out, d)
			delete(keep, d.Text)
		}
	}
	return out
}

// formatSnippet renders a snippet for a prompt or the expert.
func formatSnippet(sn Snippet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s:%d", sn.Filepath, sn.LineNumber)
	if sn.Description != "" {
		b.WriteString(" — " + sn.Description)
	}
	fmt.Fprintf(&b, "\n```\n%s\n```", strings.TrimRight(sn.Snippet, "\n"))
	return b.String()
}

// FormatSnippet renders a snippet as markdown: a heading with its place and
// description, then the code.
func FormatSnippet(sn Snippet) string { return formatSnippet(sn) }

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
