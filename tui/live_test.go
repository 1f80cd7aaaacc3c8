package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reach-agent/reach/events"
)

// naiveTail is the obvious liveTail: split everything, keep the end.
func naiveTail(text string) ([]string, string) {
	parts := strings.Split(text, "\n")
	partial := parts[len(parts)-1]
	lines := parts[:len(parts)-1]
	return lines[max(len(lines)-liveLines, 0):], partial
}

func TestLiveTailKeepsTheEnd(t *testing.T) {
	t.Parallel()
	var many strings.Builder
	for i := range 100 {
		fmt.Fprintf(&many, "line %d\n", i)
	}
	tests := []struct{ name, text string }{
		{"empty", ""},
		{"one line", "hello\n"},
		{"unfinished line", "Continue? [y/N] "},
		{"fewer lines than the view", "a\nb\nc"},
		{"exactly the view", strings.Repeat("x\n", liveLines)},
		{"many lines", many.String()},
		{"many lines and an unfinished one", many.String() + "tail"},
		{"leading and empty lines", "\n\nfirst\n\n\nlast\n"},
	}
	for _, tt := range tests {
		for _, size := range []int{1, 3, 8, 4096} {
			t.Run(fmt.Sprintf("%s/chunks of %d", tt.name, size), func(t *testing.T) {
				t.Parallel()
				var lt liveTail
				for i := 0; i < len(tt.text); i += size {
					lt.add(tt.text[i:min(i+size, len(tt.text))])
				}
				wantLines, wantPartial := naiveTail(tt.text)
				if strings.Join(lt.lines, "|") != strings.Join(wantLines, "|") || len(lt.lines) != len(wantLines) || lt.partial != wantPartial {
					t.Errorf("got %q + %q, want %q + %q", lt.lines, lt.partial, wantLines, wantPartial)
				}
			})
		}
	}
}

func TestLiveTailRender(t *testing.T) {
	t.Parallel()
	pal := newPalette(true, true)
	tests := []struct {
		name, text string
		want       []string
	}{
		{"escape sequences go", "\x1b[31mFAIL\x1b[0m\tpkg\n", []string{"FAIL    pkg"}},
		{"a progress bar shows its last state", "10%\r50%\r90%", []string{"90%"}},
		{"CRLF line ends", "one\r\ntwo\r\n", []string{"one", "two"}},
		{"long lines are cut, not wrapped", strings.Repeat("y", 50) + "\n", []string{strings.Repeat("y", 19) + "…"}},
		{"the unfinished line comes last", strings.Repeat("l\n", 12) + "now", append(strings.Split(strings.Repeat("l\n", 9), "\n")[:9], "now")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var lt liveTail
			lt.add(tt.text)
			got := lt.render(20, pal)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("render %q, want %q", got, tt.want)
			}
		})
	}
}

// buildOutput is what `go build -v ./...` prints, one package a line.
func buildOutput(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("github.com/example/project/internal/pkg%02d\n", i+1)
	}
	return out
}

func TestLiveShellOutput(t *testing.T) {
	code := 0
	call := events.ToolCall{Phase: "implementation", ID: "b1", Name: "run_shell_command", Arguments: `{"command":"go build -v ./..."}`}
	approve := events.Approval{Tool: "run_shell_command", Command: "go build -v ./...", Decision: "cowboy"}
	result := events.ToolResult{Phase: "implementation", ID: "b1", Name: "run_shell_command", Success: true, Output: "ok\n", ReturnCode: &code, DurationMS: 95000}

	h := newHarness(t, 80, 24)
	h.feed(events.Phase{Name: "implementation"}, call, approve)
	lines := buildOutput(14)
	for i := 0; i < len(lines); i += 3 {
		h.feed(events.ToolOutput{ID: "b1", Text: strings.Join(lines[i:min(i+3, len(lines))], "")})
		h.screen()
	}
	h.feed(events.ToolOutput{ID: "b1", Text: "\x1b[1mlinking\x1b[0m... "})
	h.golden("shell_live")
	screen := h.screen()
	// Nine complete lines and the unfinished one.
	if strings.Contains(screen, "pkg05\n") || !strings.Contains(screen, "pkg06") || !strings.Contains(screen, "pkg14") || !strings.Contains(screen, "linking...") {
		t.Errorf("the running panel should show the last %d lines:\n%s", liveLines, screen)
	}

	// The result replaces the live view: the panel looks as if no output
	// had streamed, and output that arrives late is ignored.
	h.feed(result, events.ToolOutput{ID: "b1", Text: "late\n"})
	plain := newHarness(t, 80, 24)
	plain.feed(events.Phase{Name: "implementation"}, call, approve, result)
	if h.screen() != plain.screen() {
		t.Errorf("finished panel\n%s\nwant\n%s", h.screen(), plain.screen())
	}
}

func TestUIMergesQueuedToolOutput(t *testing.T) {
	t.Parallel()
	u := &UI{wake: make(chan struct{}, 1)}
	u.Emit(events.ToolCall{ID: "a"})
	u.Emit(events.ToolOutput{ID: "a", Text: "1\n"})
	u.Emit(events.ToolOutput{ID: "a", Text: "2\n"})
	u.Emit(events.ToolOutput{ID: "b", Text: "3\n"})
	u.Emit(events.ToolOutput{ID: "b", Text: "4\n"})
	var got []string
	for _, item := range u.drain() {
		if o, ok := item.(events.ToolOutput); ok {
			got = append(got, o.ID+":"+strings.ReplaceAll(o.Text, "\n", ","))
		} else {
			got = append(got, item.(events.Event).Type())
		}
	}
	if strings.Join(got, " ") != "tool_call a:1,2, b:3,4," {
		t.Fatalf("queue %v", got)
	}
}
