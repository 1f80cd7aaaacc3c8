package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Read returns the entries of a log file. A damaged line is skipped and
// counted, so one bad write never hides the rest.
func Read(path string) (entries []Entry, damaged int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("read audit log: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var e Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			damaged++
			continue
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return entries, damaged, fmt.Errorf("read audit log %s: %w", path, err)
	}
	return entries, damaged, nil
}

// Sessions lists the sessions with a log in dir, the most recently
// written last.
func Sessions(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list audit logs: %w", err)
	}
	type file struct {
		name string
		mod  int64
	}
	var files []file
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{strings.TrimSuffix(e.Name(), ".jsonl"), info.ModTime().UnixNano()})
	}
	sort.SliceStable(files, func(i, j int) bool {
		if files[i].mod != files[j].mod {
			return files[i].mod < files[j].mod
		}
		return files[i].name < files[j].name
	})
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.name
	}
	return out, nil
}

// Find resolves the session to show: session itself when given, else the
// most recent one. The error names the sessions there are.
func Find(dir, session string) (string, error) {
	all, err := Sessions(dir)
	if err != nil {
		return "", err
	}
	if len(all) == 0 {
		return "", fmt.Errorf("no audit log in %s yet: run a task first", dir)
	}
	if session == "" {
		return Path(dir, all[len(all)-1]), nil
	}
	for _, s := range all {
		if s == session {
			return Path(dir, s), nil
		}
	}
	return "", fmt.Errorf("no audit log for session %q in %s; sessions with one: %s", session, dir, strings.Join(lastN(all, 10), ", "))
}

func lastN(xs []string, n int) []string {
	if len(xs) > n {
		return xs[len(xs)-n:]
	}
	return xs
}

// Format prints entries readably: a line per call, then its arguments,
// its summary and, when retrieval ran, the best candidates.
func Format(w io.Writer, entries []Entry) error {
	bw := bufio.NewWriter(w)
	for _, e := range entries {
		result := "ok"
		switch {
		case !e.Ran:
			result = "not run"
		case !e.Success:
			result = "error"
		}
		if e.ReturnCode != nil {
			result += fmt.Sprintf(" (rc %d)", *e.ReturnCode)
		}
		fmt.Fprintf(bw, "%s  %-14s %s  %s by %s  %s  %.0f ms  %d bytes\n", e.Time.Local().Format("15:04:05"), dash(e.Phase), e.Tool, e.Decision, dash(e.Rule), result, e.DurationMS, e.ResultBytes)
		fmt.Fprintf(bw, "    args %s\n", clip(string(e.Arguments), 160))
		if e.Summary != "" {
			fmt.Fprintf(bw, "    → %s\n", e.Summary)
		}
		if len(e.Candidates) > 0 {
			var parts []string
			for _, c := range e.Candidates[:min(5, len(e.Candidates))] {
				parts = append(parts, fmt.Sprintf("%s %.2f", c.Name, c.Score))
			}
			more := ""
			if len(e.Candidates) > 5 {
				more = fmt.Sprintf(" (+%d)", len(e.Candidates)-5)
			}
			fmt.Fprintf(bw, "    retrieval: %d offered; %s%s\n", e.Offered, strings.Join(parts, ", "), more)
		}
	}
	return bw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Dir is the audit directory of a state dir.
func Dir(stateDir string) string { return filepath.Join(stateDir, "audit") }
