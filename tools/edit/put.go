package edit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reach-agent/reach/diffview"
	"github.com/reach-agent/reach/tools"
)

func putSpec() tools.Spec {
	return tools.Spec{
		Name: "put_complete_file_contents",
		Summary: "Write a whole file (creating it and its parent directories if needed) and get the diff; " +
			"use it for new files or complete rewrites, not for small changes to existing files (use file_str_replace).",
		Parameters: json.RawMessage(`{
  "type": "object",
  "properties": {
    "filepath": {"type": "string", "description": "Path of the file to write, relative to the project root."},
    "complete_file_contents": {"type": "string", "description": "The entire new content of the file, not a fragment or a diff."}
  },
  "required": ["filepath", "complete_file_contents"],
  "additionalProperties": false
}`),
		SideEffect: tools.Write,
		Groups:     []string{tools.GroupImplementation},
		Backend:    "builtin",
		Version:    "1",
	}
}

type putArgs struct {
	Filepath string `json:"filepath"`
	Contents string `json:"complete_file_contents"`
}

func (e *editor) putComplete(ctx context.Context, raw json.RawMessage) tools.Result {
	args, err := tools.Decode[putArgs](raw)
	if err != nil {
		return tools.Fail(err.Error())
	}
	abs, err := e.resolve(args.Filepath)
	if err != nil {
		return tools.Fail(err.Error())
	}
	shown := e.display(abs)

	old, existed, undiffable, err := previous(abs, shown)
	if err != nil {
		return tools.Fail(err.Error())
	}
	content, note := args.Contents, ""
	diffable := existed && undiffable == ""
	if diffable && detectEOL(old) == crlf && !strings.Contains(content, "\r") {
		content = withEOL(content, crlf)
		note = " (kept the file's CRLF line endings)"
	}
	if diffable && old == content {
		return tools.OK(fmt.Sprintf("No changes: %s already has this content (%d bytes)", shown, len(content)))
	}

	if err := e.writeCreating(ctx, abs, shown, []byte(content)); err != nil {
		return tools.Fail(err.Error())
	}
	switch {
	case !existed:
		return tools.OK(fmt.Sprintf("Successfully wrote %d bytes to %s: created %s", len(content), shown, shown))
	case !diffable:
		return tools.OK(fmt.Sprintf("Successfully wrote %d bytes to %s (%s)", len(content), shown, undiffable))
	default:
		diff := diffview.Unified("a/"+shown, "b/"+shown, old, content, diffContext)
		return tools.OK(fmt.Sprintf("Successfully wrote %d bytes to %s%s\n%s", len(content), shown, note, diff))
	}
}

// previous returns the current text of the file at abs for the diff,
// whether it exists, and why it cannot be diffed (binary or too large),
// if so. Directories and special files are refused.
func previous(abs, shown string) (old string, existed bool, undiffable string, err error) {
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, "", nil
	}
	if err != nil {
		return "", false, "", fmt.Errorf("stat %s: %w", shown, err)
	}
	if st.IsDir() {
		return "", false, "", fmt.Errorf("%s is a directory; give the path of a file", shown)
	}
	if !st.Mode().IsRegular() {
		return "", false, "", fmt.Errorf("%s is not a regular file (%s); refusing to overwrite it", shown, st.Mode().Type())
	}
	if st.Size() > MaxFileSize {
		return "", true, fmt.Sprintf("replaced a %s file; no diff shown", humanSize(st.Size())), nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", false, "", fmt.Errorf("read %s: %w", shown, err)
	}
	if isBinary(data) {
		return "", true, "replaced a binary file; no diff shown", nil
	}
	return string(data), true, "", nil
}

// writeCreating is write plus the creation of missing parent directories,
// which happens after the BeforeWrite hook has agreed.
func (e *editor) writeCreating(ctx context.Context, abs, shown string, data []byte) error {
	return e.write(ctx, abs, shown, data, func() error {
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return fmt.Errorf("create the parent directories of %s: %w; the file was not written", shown, err)
		}
		return nil
	})
}
