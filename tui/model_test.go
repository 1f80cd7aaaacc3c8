package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reach-agent/reach/diffview"
	"github.com/reach-agent/reach/events"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// t0 is the fixed clock of every test.
var t0 = time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)

// harness drives a Model the way the UI does, with a fixed clock.
type harness struct {
	t     *testing.T
	m     *Model
	queue []any
	clock time.Time
}

func newHarness(t *testing.T, width, height int) *harness {
	t.Helper()
	h := &harness{t: t, clock: t0.Add(75 * time.Second)}
	h.m = newModel(Hooks{}, func() time.Time { return h.clock }, func() []any {
		q := h.queue
		h.queue = nil
		return q
	}, width, height, false)
	return h
}

// feed applies events as one wake-up.
func (h *harness) feed(evs ...events.Event) {
	for _, e := range evs {
		h.queue = append(h.queue, e)
	}
	h.send(wakeMsg{})
}

func (h *harness) send(msg tea.Msg) tea.Cmd {
	_, cmd := h.m.Update(msg)
	return cmd
}

func (h *harness) press(keys ...string) {
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// screen is the rendered view without colour and trailing blanks.
func (h *harness) screen() string {
	lines := strings.Split(ansi.Strip(h.m.render()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// golden compares the screen with testdata/name.golden.
func (h *harness) golden(name string) {
	h.t.Helper()
	got := h.screen()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatalf("read golden (run go test ./tui -update to create it): %v", err)
	}
	if got != string(want) {
		h.t.Errorf("screen differs from %s (go test ./tui -update rewrites it)\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

const goOld = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n"
const goNew = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello, world\")\n\tfmt.Println(\"bye\")\n}\n"

// session is a short run: a research answer, a search, a read, an edit
// with its diff, a shell command and the final result.
func session() []events.Event {
	code := 0
	diff := "Successfully replaced 1 occurrence in main.go\n" + diffview.Unified("a/main.go", "b/main.go", goOld, goNew, 3)
	return []events.Event{
		events.Init{Model: "gpt-4o-mini", Provider: "openai", Task: "Make main print a friendlier greeting and say goodbye.", Time: t0},
		events.Phase{Name: "research"},
		events.TextDelta{Phase: "research", Text: "I'll look for the **greeting** first.\n\n"},
		events.TextDelta{Phase: "research", Text: "It is printed in `main.go`."},
		events.Message{Phase: "research", Text: "I'll look for the **greeting** first.\n\nIt is printed in `main.go`."},
		events.ToolCall{Phase: "research", ID: "c1", Name: "ripgrep_search", Arguments: `{"pattern":"hello","path":"."}`},
		events.ToolResult{Phase: "research", ID: "c1", Name: "ripgrep_search", Success: true, Output: "main.go:6:\tfmt.Println(\"hello\")\n1 match", DurationMS: 12},
		events.Usage{InputTokens: 1234, OutputTokens: 56, CostUSD: 0.0012, Requests: 1},
		events.Phase{Name: "implementation", TaskIndex: 1, TaskCount: 2, Task: "Change the greeting in main.go"},
		events.ToolCall{Phase: "implementation", ID: "c2", Name: "file_str_replace", Arguments: `{"filepath":"main.go","old_str":"fmt.Println(\"hello\")","new_str":"fmt.Println(\"hello, world\")\n\tfmt.Println(\"bye\")"}`},
		events.ToolResult{Phase: "implementation", ID: "c2", Name: "file_str_replace", Success: true, Output: diff, DurationMS: 3},
		events.ToolCall{Phase: "implementation", ID: "c3", Name: "run_shell_command", Arguments: `{"command":"go run ."}`},
		events.Approval{Tool: "run_shell_command", Command: "go run .", Decision: "yes"},
		events.ToolResult{Phase: "implementation", ID: "c3", Name: "run_shell_command", Success: true, Output: "hello, world\nbye\n", ReturnCode: &code, DurationMS: 1500},
		events.Usage{InputTokens: 5678, OutputTokens: 321, CostUSD: 0.0042, Requests: 3},
		events.Message{Phase: "implementation", Text: "Done: `main` now greets the world and says **bye**."},
		events.Result{Status: "success", Summary: "Done.", Usage: events.Usage{InputTokens: 5678, OutputTokens: 321}, CostUSD: 0.0042, Duration: 75},
	}
}

func TestGoldenSession(t *testing.T) {
	for _, size := range []struct{ w, h int }{{120, 46}, {60, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			h := newHarness(t, size.w, size.h)
			h.feed(session()...)
			h.send(finishedMsg{})
			h.golden(fmt.Sprintf("session_%d", size.w))
		})
	}
}

func TestGoldenDiffExpanded(t *testing.T) {
	old := strings.Repeat("line\n", 40)
	new := strings.Replace(old, "line\n", "LINE\n", 30)
	h := newHarness(t, 80, 60)
	h.feed(
		events.ToolCall{ID: "e", Name: "put_complete_file_contents", Arguments: `{"filepath":"a.txt","complete_file_contents":"..."}`},
		events.ToolResult{ID: "e", Name: "put_complete_file_contents", Success: true, Output: diffview.Unified("a/a.txt", "b/a.txt", old, new, 3)},
	)
	h.golden("diff_collapsed")
	h.press("enter")
	h.golden("diff_expanded")
}

// longAnswer is markdown of about n words with headings, lists and code.
func longAnswer(sections int) string {
	var b strings.Builder
	for i := 1; i <= sections; i++ {
		fmt.Fprintf(&b, "## Step %d\n\nThe parser reads each line of the file, keeps the state of the current block and emits a token when the block ends. This is paragraph %d.\n\n", i, i)
		fmt.Fprintf(&b, "- item %d.a with `code`\n- item %d.b\n\n", i, i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "```go\nfunc step%d() int {\n\treturn %d\n}\n```\n\n", i, i)
		}
	}
	return b.String()
}

func TestGoldenLongStream(t *testing.T) {
	h := newHarness(t, 80, 24)
	text := longAnswer(12)
	h.feed(events.Phase{Name: "research"})
	// Stream in small pieces, rendering as the UI would between them.
	for i := 0; i < len(text); i += 7 {
		h.feed(events.TextDelta{Phase: "research", Text: text[i:min(i+7, len(text))]})
		if i%70 == 0 {
			h.screen()
		}
	}
	h.golden("long_stream_live")
	h.feed(events.Message{Phase: "research", Text: text})
	h.golden("long_stream_done")
	h.press("pgup", "pgup")
	h.golden("long_stream_scrolled")
	if !strings.Contains(h.screen(), "Step 7") || strings.Contains(h.screen(), "Step 12") {
		t.Errorf("two pages up should show the middle of the answer:\n%s", h.screen())
	}
}

func TestApprovalAnsweredNo(t *testing.T) {
	h := newHarness(t, 80, 20)
	h.feed(session()[:12]...)
	p := &prompt{question: "run_shell_command wants to run:\n    rm -rf build\x1b[31m\nExecute this command? (y=yes, n=no, c=enable cowboy mode for session)", choices: []string{"y", "n", "c"}, reply: make(chan string, 1)}
	h.send(promptMsg{p})
	h.press("esc", "x", "q") // nothing else steals the keys
	if len(h.m.prompts) != 1 {
		t.Fatalf("keys other than the choices closed the prompt")
	}
	h.golden("approval_open")
	h.press("n")
	select {
	case got := <-p.reply:
		if got != "n" {
			t.Fatalf("answer = %q, want n", got)
		}
	default:
		t.Fatal("no answer sent")
	}
	h.feed(events.Approval{Tool: "run_shell_command", Command: "rm -rf build", Decision: "no", Reason: "Command execution cancelled by user"},
		events.ToolResult{ID: "c3", Name: "run_shell_command", Success: false, Error: "Command execution cancelled by user"})
	h.golden("approval_answered_no")
}

func TestResize(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.feed(session()...)
	h.screen()
	h.send(tea.WindowSizeMsg{Width: 60, Height: 40})
	h.golden("resized_60")
	for i, l := range strings.Split(h.screen(), "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line %d is %d wide after resize to 60: %q", i, w, l)
		}
	}
}
