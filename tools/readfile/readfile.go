// Package readfile implements read_file_tool: a project file's lines,
// numbered, a window at a time.
package readfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/workspace"
)

// Name is the tool's wire name.
const Name = "read_file_tool"

// Defaults and limits of the tool.
const (
	DefaultLimit = 2000
	MaxFileBytes = 10 << 20 // larger files are refused with a hint to search
	MaxLineBytes = 2000     // a longer line is cut and says by how much
	sniffBytes   = 8000     // a NUL byte in this prefix marks a binary file, as git does
	// outputBudget keeps a window under the executor's 64 KiB cut: the tool
	// stops early and names the offset to continue from, rather than losing
	// the middle of the window to head-and-tail truncation.
	outputBudget = tools.MaxOutputBytes - 1024
)

// Options configures the tool; the zero value uses the defaults above.
type Options struct {
	MaxFileBytes int64 // 0 means MaxFileBytes
}

const schema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["filepath"],
  "properties": {
    "filepath": {"type": "string", "minLength": 1, "description": "Path of the file, relative to the project root."},
    "offset": {"type": "integer", "minimum": 1, "default": 1, "description": "First line to return (1-based). Default 1."},
    "limit": {"type": "integer", "minimum": 1, "default": 2000, "description": "Number of lines to return. Default 2000."}
  }
}`

type args struct {
	Filepath string `json:"filepath"`
	Offset   *int   `json:"offset"`
	Limit    *int   `json:"limit"`
}

// Tool returns read_file_tool working inside root.
func Tool(root *workspace.Root, opts Options) tools.Tool {
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = MaxFileBytes
	}
	return tools.Typed(tools.Spec{
		Name: Name,
		Summary: "Read a text file of the project with numbered lines, 2000 lines at a time (offset/limit for more). " +
			"Use it once you know which file matters; to find where something is, use ripgrep_search first. Binary files are refused.",
		Parameters: json.RawMessage(schema),
		SideEffect: tools.Read,
		Idempotent: true,
		Timeout:    30 * time.Second,
		Groups:     []string{tools.GroupBase},
	}, func(_ context.Context, a args) tools.Result {
		return read(root, opts, a)
	})
}

func read(root *workspace.Root, opts Options, a args) tools.Result {
	offset, limit := 1, DefaultLimit
	if a.Offset != nil {
		offset = *a.Offset
	}
	if a.Limit != nil {
		limit = *a.Limit
	}
	if offset < 1 {
		return tools.Fail(fmt.Sprintf("offset must be 1 or more (the first line is 1), got %d", offset))
	}
	if limit < 1 {
		return tools.Fail(fmt.Sprintf("limit must be 1 or more, got %d", limit))
	}
	abs, err := root.Resolve(a.Filepath)
	if err != nil {
		return tools.Fail(fmt.Sprintf("cannot read %s: %v", a.Filepath, err))
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tools.Fail(fmt.Sprintf("File not found: %s (use fuzzy_find_project_files to find the right path)", a.Filepath))
	case err != nil:
		return tools.Fail(fmt.Sprintf("cannot read %s: %v", a.Filepath, err))
	case fi.IsDir():
		return tools.Fail(fmt.Sprintf("%s is a directory, not a file; use list_directory_tree to see what it contains", a.Filepath))
	case !fi.Mode().IsRegular():
		return tools.Fail(fmt.Sprintf("%s is not a regular file (%s)", a.Filepath, fi.Mode().Type()))
	case fi.Size() > opts.MaxFileBytes:
		return tools.Fail(fmt.Sprintf("%s is too large to read (%s, the limit is %s); use ripgrep_search with include_paths=[%q] to find the lines you need",
			a.Filepath, humanSize(fi.Size()), humanSize(opts.MaxFileBytes), a.Filepath))
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return tools.Fail(fmt.Sprintf("cannot read %s: %v", a.Filepath, err))
	}
	if bytes.IndexByte(data[:min(len(data), sniffBytes)], 0) >= 0 {
		return tools.Fail(fmt.Sprintf("read_file failed because we cannot read binary files: %s looks binary", a.Filepath))
	}
	return tools.OK(number(data, offset, limit))
}

// number renders lines offset..offset+limit-1 of data with their numbers
// and a note of what remains.
func number(data []byte, offset, limit int) string {
	if len(data) == 0 {
		return "(empty file)"
	}
	total := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		total++
	}
	if offset > total {
		return fmt.Sprintf("(the file has %d lines; offset %d is past the end — use an offset between 1 and %d)", total, offset, total)
	}
	width := len(fmt.Sprint(min(total, offset+limit-1)))
	var b strings.Builder
	line, pos := 1, 0
	for pos < len(data) && line < offset+limit {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos
		}
		if line >= offset {
			text := data[pos:end]
			text = bytes.TrimSuffix(text, []byte{'\r'})
			row := fmt.Sprintf("%*d\t%s\n", width, line, clip(text))
			if b.Len()+len(row) > outputBudget && line > offset {
				break
			}
			b.WriteString(row)
		}
		line++
		pos = end + 1
	}
	if rest := total - (line - 1); rest > 0 {
		fmt.Fprintf(&b, "[%d more lines; call read_file_tool with offset=%d to continue]\n", rest, line)
	}
	return b.String()
}

func clip(b []byte) string {
	if len(b) <= MaxLineBytes {
		return string(b)
	}
	cut := MaxLineBytes
	for cut > 0 && b[cut]&0xC0 == 0x80 {
		cut--
	}
	return fmt.Sprintf("%s … [%d more bytes]", b[:cut], len(b)-cut)
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
