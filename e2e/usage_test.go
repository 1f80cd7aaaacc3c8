package e2e

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBadInputExitsWithDocumentedCode(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo, "task.md": "do it\n"})
	// A port nothing listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/v1"
	l.Close()
	key := map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": closed}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"no task", key, nil, 2, "-m"},
		{"both -m and --msg-file", key, []string{"-m", "x", "--msg-file", "task.md"}, 2, "--msg-file"},
		{"temperature 3", key, []string{"-m", "x", "--temperature", "3"}, 2, "--temperature must be between 0.0 and 2.0"},
		{"recursion limit 0", key, []string{"-m", "x", "--recursion-limit", "0"}, 2, "--recursion-limit"},
		{"unknown output format", key, []string{"-m", "x", "--output-format", "xml"}, 2, "--output-format"},
		{"unknown flag", key, []string{"-m", "x", "--frobnicate"}, 2, "frobnicate"},
		{"stray argument", key, []string{"do", "it"}, 2, "-m"},
		{"missing key", map[string]string{}, []string{"-m", "x"}, 2, "OPENAI_API_KEY"},
		{"unreachable base URL", key, []string{"-m", "x"}, 3, l.Addr().String()},
		{"missing msg file", key, []string{"--msg-file", "nope.md"}, 2, "nope.md"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, dir, tc.env, tc.args...)
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", res.code, tc.code, res.stderr)
			}
			if !strings.Contains(res.stderr, tc.want) {
				t.Fatalf("stderr %q does not mention %q", res.stderr, tc.want)
			}
			lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
			if errLine := lines[len(lines)-1]; !strings.HasPrefix(errLine, "reach: ") {
				t.Fatalf("last stderr line is not a one-line error: %q", errLine)
			}
		})
	}
}

func TestProjectConfigIsRead(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"greet.go": greetGo})
	if err := os.MkdirAll(filepath.Join(dir, ".reach"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".reach", "config.toml"), []byte("temperature = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, dir, map[string]string{"OPENAI_API_KEY": "k"}, "-m", "x")
	if res.code != 2 || !strings.Contains(res.stderr, "temperature") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	res := run(t, t.TempDir(), nil, "version")
	if res.code != 0 || !strings.HasPrefix(res.stdout, "reach ") {
		t.Fatalf("exit %d stdout %q", res.code, res.stdout)
	}
}
