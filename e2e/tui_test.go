package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/llm/llmtest"
)

// tmuxSession runs a command in a detached tmux session of its own server,
// so the test sees the screen exactly as a terminal would show it.
type tmuxSession struct {
	t      *testing.T
	socket string
	name   string
}

func startTmux(t *testing.T, dir string, env map[string]string, width, height int, args ...string) *tmuxSession {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	s := &tmuxSession{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock"), name: "reach"}
	home := t.TempDir()
	envArgs := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "TERM=xterm-256color"}
	for k, v := range env {
		envArgs = append(envArgs, k+"="+v)
	}
	quoted := make([]string, 0, len(args)+1)
	for _, a := range append([]string{binary}, args...) {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	// Keep the pane after reach exits so its last output and exit code can be read.
	script := fmt.Sprintf("cd '%s' && env -i %s %s; echo REACH-EXIT=$?; sleep 60", dir, strings.Join(envArgs, " "), strings.Join(quoted, " "))
	s.tmux("new-session", "-d", "-s", s.name, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "bash", "-c", script)
	t.Cleanup(func() { exec.Command("tmux", "-S", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxSession) screen() string { return s.tmux("capture-pane", "-p", "-t", s.name) }

// waitFor polls the screen until it contains want.
func (s *tmuxSession) waitFor(want string, timeout time.Duration) string {
	s.t.Helper()
	return s.waitForAll(timeout, want)
}

// waitForAll polls the screen until it shows every string in wants: a
// differential renderer may paint a frame's lines in more than one write,
// so the first sight of one string does not mean the rest are there yet.
func (s *tmuxSession) waitForAll(timeout time.Duration, wants ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen := s.screen()
		missing := ""
		for _, w := range wants {
			if !strings.Contains(screen, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed %q; it shows:\n%s", missing, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// keep saves the screen with its colours to $REACH_TUI_SHOTS/name.ansi
// when that variable is set (for the README screenshot).
func (s *tmuxSession) keep(name string) {
	dir := os.Getenv("REACH_TUI_SHOTS")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".ansi"), []byte(s.tmux("capture-pane", "-p", "-e", "-t", s.name)), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *tmuxSession) keys(keys ...string) {
	s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

// tuiScript asks to run a shell command that writes a file in research (which needs approval
// without cowboy mode), then plans and makes one edit.
func tuiScript() []llmtest.Turn {
	chunked := func(t llmtest.Turn) llmtest.Turn { t.ChunkSize = 5; return t }
	return []llmtest.Turn{
		chunked(llmtest.Calls(llmtest.Call("r1", "run_shell_command", `{"command":"echo shell-said-hi | tee said.txt"}`))),
		chunked(llmtest.Reply("The greeting lives in **greet.go**.\n\n- `Greeting()` returns it")),
		chunked(llmtest.Calls(llmtest.Call("p1", "request_task_implementation", `{"task_spec":"In greet.go change \"Hello world\" to \"Hello universe\"."}`))),
		chunked(llmtest.Reply("One task.")),
		chunked(llmtest.Calls(llmtest.Call("i1", "file_str_replace", `{"filepath":"greet.go","old_str":"return \"Hello world\"","new_str":"return \"Hello universe\""}`))),
		chunked(llmtest.Reply("Changed the greeting to Hello universe.")),
	}
}

func TestTUIApprovalAndDiff(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t, tuiScript()...)
	tm := startTmux(t, dir, env(s), 100, 40, "-m", "change the greeting in greet.go to Hello universe")

	screen := tm.waitFor("Execute this command?", 20*time.Second)
	for _, want := range []string{"echo shell-said-hi | tee said.txt", "[y] yes", "[n] no", "[c] cowboy"} {
		if !strings.Contains(screen, want) {
			t.Errorf("approval prompt lacks %q:\n%s", want, screen)
		}
	}
	tm.keep("approval")
	tm.keys("y")
	tm.waitForAll(20*time.Second, "finished", "shell-said-hi", "approved", "file_str_replace",
		`-    return "Hello world"`, `+    return "Hello universe"`, "Changed the greeting", "✓ done")
	if got := readFile(t, filepath.Join(dir, "greet.go")); !strings.Contains(got, `"Hello universe"`) {
		t.Errorf("greet.go not edited:\n%s", got)
	}
	tm.keep("final")
	tm.keys("q")
	screen = tm.waitFor("REACH-EXIT=", 10*time.Second)
	if !strings.Contains(screen, "REACH-EXIT=0") {
		t.Errorf("reach did not exit 0:\n%s", screen)
	}
	// The answer stays on the terminal after the UI is gone.
	if !strings.Contains(screen, "Changed the greeting to Hello universe.") {
		t.Errorf("the final answer was not printed after the UI closed:\n%s", screen)
	}
}
