package edit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reach-agent/reach/diffview"
	"github.com/reach-agent/reach/tools"
)

func strReplaceSpec() tools.Spec {
	return tools.Spec{
		Name: "file_str_replace",
		Summary: "Replace an exact string in an existing file (unique unless replace_all) and get the diff; " +
			"use it for targeted edits, not to create files or rewrite whole files (use put_complete_file_contents).",
		Parameters: json.RawMessage(`{
  "type": "object",
  "properties": {
    "filepath": {"type": "string", "description": "Path of the file to edit, relative to the project root."},
    "old_str": {"type": "string", "description": "Exact text to replace, including whitespace and indentation. It must occur exactly once unless replace_all is true; add surrounding lines to make it unique."},
    "new_str": {"type": "string", "description": "Text to put in its place; empty deletes old_str."},
    "replace_all": {"type": "boolean", "default": false, "description": "Replace every occurrence instead of requiring a unique match."}
  },
  "required": ["filepath", "old_str", "new_str"],
  "additionalProperties": false
}`),
		SideEffect: tools.Write,
		Groups:     []string{tools.GroupImplementation},
		Backend:    "builtin",
		Version:    "1",
	}
}

type strReplaceArgs struct {
	Filepath   string `json:"filepath"`
	OldStr     string `json:"old_str"`
	NewStr     string `json:"new_str"`
	ReplaceAll bool   `json:"replace_all"`
}

func (e *editor) strReplace(ctx context.Context, raw json.RawMessage) tools.Result {
	args, err := tools.Decode[strReplaceArgs](raw)
	if err != nil {
		return tools.Fail(err.Error())
	}
	if args.OldStr == "" {
		return tools.Fail("old_str is empty: give the exact text to replace, with enough surrounding lines to be unique; to write a whole file use put_complete_file_contents")
	}
	abs, err := e.resolve(args.Filepath)
	if err != nil {
		return tools.Fail(err.Error())
	}
	shown := e.display(abs)
	content, err := readText(abs, shown)
	if err != nil {
		return tools.Fail(err.Error())
	}

	oldStr, newStr, count := match(content, args.OldStr, args.NewStr)
	switch {
	case count == 0:
		return tools.Fail("String not found: " + quoteShort(args.OldStr))
	case count > 1 && !args.ReplaceAll:
		return tools.Fail(fmt.Sprintf("String appears %d times - must be unique (use replace_all=True to replace all occurrences)", count))
	}
	updated := strings.ReplaceAll(content, oldStr, newStr)
	if updated == content {
		return tools.OK(fmt.Sprintf("No changes: new_str is the same as old_str, %s was left as it was", shown))
	}
	if err := e.write(ctx, abs, shown, []byte(updated), nil); err != nil {
		return tools.Fail(err.Error())
	}
	diff := diffview.Unified("a/"+shown, "b/"+shown, content, updated, diffContext)
	return tools.OK(fmt.Sprintf("Successfully replaced %s in %s\n%s", plural(count, "occurrence"), shown, diff))
}

// match finds old in content and returns the forms of old and new to use
// and how often old occurs. The strings are first matched with the file's
// own line endings (a model usually sends LF for a CRLF file), then as
// given, for files that mix endings.
func match(content, old, new string) (string, string, int) {
	eol := detectEOL(content)
	o, n := withEOL(old, eol), withEOL(new, eol)
	if c := strings.Count(content, o); c > 0 || o == old {
		return o, n, c
	}
	return old, new, strings.Count(content, old)
}
