package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reach-agent/reach/llm/llmtest"
)

// liveCommand prints a line, waits until the test has seen that line as a
// tool_output event (it then creates go.flag), and prints three more
// with pauses. Without live output the wait ends in the timeout.
const liveCommand = `echo ready; n=0; while [ ! -e go.flag ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1)); done; ` +
	`[ -e go.flag ] || { echo "never released"; exit 7; }; for i in 1 2 3; do echo line $i; sleep 0.2; done`

func shellScript() []llmtest.Turn {
	args, _ := json.Marshal(map[string]any{"command": liveCommand, "timeout": 30})
	return []llmtest.Turn{
		llmtest.Calls(llmtest.Call("s1", "run_shell_command", string(args))),
		llmtest.Reply("The command ran."),
	}
}

func TestStreamJSONShowsShellOutputLive(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	s := llmtest.NewServer(t, shellScript()...)
	cmd := exec.Command(binary, "--cowboy-mode", "--research-only", "--output-format", "stream-json", "-m", "run it")
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "OPENAI_API_KEY=k", "OPENAI_BASE_URL=" + s.URL()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	var types []string
	var live strings.Builder
	var result map[string]any
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line is not JSON: %q: %v", sc.Text(), err)
		}
		typ, _ := ev["type"].(string)
		types = append(types, typ)
		switch typ {
		case "tool_output":
			if ev["id"] != "s1" {
				t.Errorf("tool_output for call %v, want s1", ev["id"])
			}
			text, _ := ev["text"].(string)
			live.WriteString(text)
			if strings.Contains(text, "ready") {
				// Seen while the command runs: let it go on.
				if err := os.WriteFile(filepath.Join(dir, "go.flag"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		case "tool_result":
			result = ev
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("reach: %v\nstderr: %s", err, stderr.String())
	}
	if result == nil || result["success"] != true || !strings.Contains(result["output"].(string), "line 3") {
		t.Fatalf("tool result %v (the command was not released live?)\nevents %v", result, types)
	}
	if got, want := live.String(), "ready\nline 1\nline 2\nline 3\n"; got != want {
		t.Errorf("live output %q, want %q", got, want)
	}
	// Every tool_output comes between the call and its result, and the
	// pauses keep the lines in separate events.
	joined := strings.Join(types, ",")
	call, res := strings.Index(joined, "tool_call"), strings.Index(joined, "tool_result")
	if n := strings.Count(joined[call:res], "tool_output"); n < 3 || strings.Count(joined, "tool_output") != n {
		t.Errorf("%d tool_output events between the call and the result: %v", n, types)
	}
}

func TestPlainOutputShowsShellOutputOnce(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo, "go.flag": ""})
	s := llmtest.NewServer(t, shellScript()...)
	res := run(t, dir, env(s), "--cowboy-mode", "--research-only", "-m", "run it")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	want := "   | ready\n   | line 1\n   | line 2\n   | line 3\n   ok (4 lines, "
	if !strings.Contains(res.stderr, want) || strings.Count(res.stderr, "line 2") != 1 {
		t.Errorf("stderr lacks the live output once, indented, before the result:\n%s", res.stderr)
	}
	if strings.Contains(res.stdout, "line 2") {
		t.Errorf("live output reached stdout: %q", res.stdout)
	}
}
