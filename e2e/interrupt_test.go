package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reach-agent/reach/llm/llmtest"
)

func TestInterruptExits130(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t, llmtest.Hang())
	cmd := exec.Command(binary, "--research-only", "--output-format", "stream-json", "-m", "wait forever")
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "OPENAI_API_KEY=k", "OPENAI_BASE_URL=" + s.URL()}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(s.Requests()) == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("reach never called the model")
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("err %v, want exit 130\nstderr: %s", err, stderr.String())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s to stop after SIGINT", d)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"type":"result"`) || !strings.Contains(last, `"status":"interrupted"`) || !strings.Contains(last, `"exit_code":130`) {
		t.Fatalf("last event %s", last)
	}
}
