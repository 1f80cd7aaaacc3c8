package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reach-agent/reach/tools/shell"
)

// TestMain lets the test binary play reach's hidden __sandbox command.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == ChildCommand {
		err := Child(os.Args[2:])
		fmt.Fprintln(os.Stderr, err)
		os.Exit(126)
	}
	os.Exit(m.Run())
}

func needLandlock(t *testing.T) Support {
	t.Helper()
	s := Probe()
	if s.LandlockABI == 0 {
		t.Skip("this kernel has no Landlock (landlock_create_ruleset failed); the sandbox cannot confine writes here")
	}
	return s
}

// dirs returns a project root and a directory outside it, neither of them
// writable as a temp directory (Temp is empty in these tests).
func dirs(t *testing.T) (root, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside = filepath.Join(base, "project"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "keep.txt"), []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

// run runs script with bash through the sandbox and returns its output
// and exit code.
func run(t *testing.T, sb *Sandbox, dir, script string) (string, int) {
	t.Helper()
	r := &shell.Runner{Prepare: sb.Prepare}
	out, err := r.Run(context.Background(), script, dir, 20*time.Second)
	if err != nil {
		t.Fatalf("run %q: %v", script, err)
	}
	return out.Text, out.ExitCode
}

func TestSandboxConfinesWrites(t *testing.T) {
	support := needLandlock(t)
	root, outside := dirs(t)
	sb, err := New(Options{Mode: WorkspaceWrite, Root: root, Temp: []string{}, Support: support})
	if err != nil {
		t.Fatal(err)
	}
	escapes := []string{
		"echo pwned > " + filepath.Join(outside, "new.txt"),
		"echo pwned >> " + filepath.Join(outside, "keep.txt"),
		"rm -f " + filepath.Join(outside, "keep.txt"),
		"cd .. && mkdir outside/dir",
		"ln -s " + outside + " escape && echo x > escape/via-link.txt",
		"python3 -c 'open(\"" + filepath.Join(outside, "py.txt") + "\", \"w\").write(\"x\")' 2>&1 || exit 1",
	}
	for _, script := range escapes {
		t.Run(script, func(t *testing.T) {
			out, code := run(t, sb, root, script)
			if code == 0 {
				t.Errorf("exit 0, want a failure; output %q", out)
			}
		})
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 {
		t.Errorf("outside now holds %d entries, want only keep.txt", len(ents))
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "keep.txt")); string(data) != "outside\n" {
		t.Errorf("keep.txt changed: %q", data)
	}
	// Inside the root, and reading anywhere, work.
	if out, code := run(t, sb, root, "mkdir -p a/b && echo ok > a/b/f && cat a/b/f && cat "+filepath.Join(outside, "keep.txt")+" >/dev/null"); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("writing inside the root: exit %d, output %q", code, out)
	}
}

func TestReadOnlyModeRefusesProjectWrites(t *testing.T) {
	support := needLandlock(t)
	root, _ := dirs(t)
	sb, err := New(Options{Mode: ReadOnly, Root: root, Temp: []string{}, Support: support})
	if err != nil {
		t.Fatal(err)
	}
	if out, code := run(t, sb, root, "echo x > f.txt"); code == 0 {
		t.Errorf("read-only sandbox let a write through: %q", out)
	}
	if out, code := run(t, sb, root, "ls -la . > /dev/null && echo ok"); code != 0 {
		t.Errorf("read-only sandbox blocked a read: %q", out)
	}
}

// listen opens a loopback listener in the test process.
func listen(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
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
	return port
}

func TestSandboxBlocksNetwork(t *testing.T) {
	support := needLandlock(t)
	port := listen(t)
	connect := "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo connected"
	root, _ := dirs(t)
	cases := []struct {
		name    string
		support Support
		allow   bool
		want    bool // connection succeeds
		skip    string
	}{
		{name: "network namespace", support: Support{LandlockABI: support.LandlockABI, UserNetNS: true}, skip: nsSkip(support)},
		{name: "landlock TCP rules", support: Support{LandlockABI: support.LandlockABI}, skip: tcpSkip(support)},
		{name: "--allow-network", support: support, allow: true, want: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip != "" {
				t.Skip(tc.skip)
			}
			sb, err := New(Options{Mode: WorkspaceWrite, Root: root, AllowNetwork: tc.allow, Temp: []string{}, Support: tc.support})
			if err != nil {
				t.Fatal(err)
			}
			out, code := run(t, sb, root, connect)
			if got := code == 0 && strings.Contains(out, "connected"); got != tc.want {
				t.Errorf("connected=%v, want %v (exit %d, output %q)", got, tc.want, code, out)
			}
		})
	}
	t.Run("loopback inside the namespace works", func(t *testing.T) {
		if s := nsSkip(support); s != "" {
			t.Skip(s)
		}
		sb, err := New(Options{Mode: WorkspaceWrite, Root: root, Temp: []string{}, Support: support})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("python3 is needed to listen inside the sandbox")
		}
		script := `python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); c=socket.create_connection(s.getsockname()); print("ok")'`
		if out, code := run(t, sb, root, script); code != 0 || !strings.Contains(out, "ok") {
			t.Errorf("a local test server inside the sandbox failed: exit %d, %q", code, out)
		}
	})
}

func nsSkip(s Support) string {
	if !s.UserNetNS {
		return "this kernel or user cannot create user+network namespaces"
	}
	return ""
}

func tcpSkip(s Support) string {
	if s.LandlockABI < 4 {
		return fmt.Sprintf("Landlock ABI %d has no TCP rules (needs 4)", s.LandlockABI)
	}
	return ""
}

func TestOffLeavesCommandAlone(t *testing.T) {
	sb, err := New(Options{Mode: Off, Root: "/x", Self: "/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", "true")
	before := cmd.Path
	if err := sb.Prepare(cmd); err != nil || cmd.Path != before {
		t.Fatalf("Prepare changed the command: %v %s", err, cmd.Path)
	}
	if sb.Confines() {
		t.Error("an off sandbox claims to confine")
	}
	if !strings.Contains(sb.Describe(), "not confined") {
		t.Errorf("Describe: %q", sb.Describe())
	}
}

func TestDescribeWithoutLandlock(t *testing.T) {
	sb, err := New(Options{Mode: WorkspaceWrite, Root: "/x", Self: "/bin/true", Support: Support{}})
	if err != nil {
		t.Fatal(err)
	}
	if sb.Confines() {
		t.Error("claims to confine without Landlock")
	}
	d := sb.Describe()
	if !strings.Contains(d, "no Landlock") || !strings.Contains(d, "NOT blocked") {
		t.Errorf("Describe does not say plainly what is missing: %q", d)
	}
}
