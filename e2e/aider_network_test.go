package e2e

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAiderKeepsTheNetworkShellDoesNot: aider must reach its model, so its
// sandbox keeps the network, while run_shell_command's does not.
func TestAiderKeepsTheNetworkShellDoesNot(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	probe := "if exec 3<>/dev/tcp/127.0.0.1/" + port + "; then echo net=ok; else echo net=blocked; fi"

	bin := t.TempDir()
	fakeAider := "#!/usr/bin/env bash\n" + probe + " > \"$PWD/aider-net.txt\"\n"
	if err := os.WriteFile(filepath.Join(bin, "aider"), []byte(fakeAider), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := repo(t, map[string]string{"greet.go": greetGo})
	env := map[string]string{"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH"), "OPENAI_API_KEY": "k"}

	res := run(t, dir, env, "tools", "call", "--use-aider", "--cowboy-mode", "run_programming_task", `{"instructions":"say hi","files":["greet.go"]}`)
	if res.code != 0 {
		t.Fatalf("aider call: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := strings.TrimSpace(readFile(t, filepath.Join(dir, "aider-net.txt"))); got != "net=ok" {
		t.Fatalf("aider's sandbox: %s, want net=ok", got)
	}

	// The policy refuses /dev/tcp redirections outright, so the shell probe
	// is a python connect.
	pyProbe := `python3 -c 'import socket\ntry:\n socket.create_connection((\"127.0.0.1\", ` + port + `), 2); print(\"net=ok\")\nexcept OSError: print(\"net=blocked\")'`
	res = run(t, dir, env, "tools", "call", "--cowboy-mode", "run_shell_command", `{"command":"`+pyProbe+`"}`)
	if !strings.Contains(res.stdout, "net=blocked") {
		t.Fatalf("shell's sandbox let the network through (or the probe did not run): exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}
