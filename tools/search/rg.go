package search

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// rgArgs builds the rg command line for q. --no-config keeps the user's
// RIPGREP_CONFIG_PATH from changing the output format.
func rgArgs(q query) []string {
	args := []string{"--no-config", "--no-heading", "--with-filename", "--line-number",
		"--color", "never", "--null", "--no-messages"}
	if q.Fixed {
		args = append(args, "--fixed-strings")
	}
	if q.CaseSensitive {
		args = append(args, "--case-sensitive")
	} else {
		args = append(args, "--ignore-case")
	}
	if q.Before > 0 {
		args = append(args, "--before-context", strconv.Itoa(q.Before))
	}
	if q.After > 0 {
		args = append(args, "--after-context", strconv.Itoa(q.After))
	}
	if q.Hidden {
		args = append(args, "--hidden")
	}
	if q.Follow {
		args = append(args, "--follow")
	}
	if q.TypeName != "" {
		for _, g := range q.TypeGlobs {
			args = append(args, "--type-add", "reach:"+g)
		}
		args = append(args, "--type", "reach")
	}
	for _, d := range q.Exclude {
		args = append(args, "--glob", "!"+d)
	}
	args = append(args, "--regexp", q.Pattern, "--")
	return append(args, q.Paths...)
}

// rgSearch runs rg in dir and parses its output. Exit status 1 (no match)
// is a successful empty result; status 2 with no output is an error that
// quotes rg's message.
func rgSearch(ctx context.Context, rg, dir string, q query) (*results, error) {
	cmd := exec.CommandContext(ctx, rg, rgArgs(q)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 8 << 10}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("run rg: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run rg: %w", err)
	}
	res, perr := parseRg(stdout, q.Before > 0 || q.After > 0)
	if perr != nil {
		_, _ = io.Copy(io.Discard, stdout)
	}
	werr := cmd.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if perr != nil {
		return nil, fmt.Errorf("read rg output: %w", perr)
	}
	var exit *exec.ExitError
	switch {
	case werr == nil:
		return res, nil
	case errors.As(werr, &exit) && exit.ExitCode() == 1:
		return res, nil
	case errors.As(werr, &exit) && exit.ExitCode() == 2 && res.matches > 0:
		return res, nil // some files could not be read; the matches stand
	default:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = werr.Error()
		}
		return nil, errors.New(msg)
	}
}

// parseRg reads --null --no-heading output: "path\0N:text" for matches,
// "path\0N-text" for context, "--" between groups.
func parseRg(r io.Reader, context bool) (*results, error) {
	res := newResults(context)
	br := bufio.NewReaderSize(r, 256<<10)
	var cur string
	var lines []outLine
	flush := func() {
		if len(lines) > 0 {
			res.add(cur, lines)
			lines = nil
		}
	}
	for {
		raw, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A very long line: collect it whole.
			full := append([]byte(nil), raw...)
			for errors.Is(err, bufio.ErrBufferFull) {
				raw, err = br.ReadSlice('\n')
				full = append(full, raw...)
			}
			raw = full
		}
		if len(raw) > 0 {
			if l, path, ok := parseRgLine(raw); ok {
				if path != cur {
					flush()
					cur = path
				}
				lines = append(lines, l)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	flush()
	return res, nil
}

func parseRgLine(raw []byte) (outLine, string, bool) {
	raw = bytes.TrimSuffix(raw, []byte{'\n'})
	nul := bytes.IndexByte(raw, 0)
	if nul < 0 {
		return outLine{}, "", false // "--" separator
	}
	path, rest := string(raw[:nul]), raw[nul+1:]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i == len(rest) {
		return outLine{}, "", false
	}
	n, err := strconv.Atoi(string(rest[:i]))
	if err != nil {
		return outLine{}, "", false
	}
	return outLine{Num: n, Text: string(trimCR(rest[i+1:])), Match: rest[i] == ':'}, path, true
}

// limitedWriter keeps the first n bytes written to it and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		_, _ = l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
