package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestPathsAndExtras(t *testing.T) {
	t.Parallel()
	t.Run("mcp.json in the state dir is the default", func(t *testing.T) {
		t.Parallel()
		c, fx, err := load(t, run{files: map[string]string{".reach/mcp.json": "{}"}})
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(fx.projectDir, ".reach", "mcp.json"); c.MCPConfig != want {
			t.Errorf("MCPConfig = %q, want %q", c.MCPConfig, want)
		}
	})
	t.Run("project-state-dir moves the project file", func(t *testing.T) {
		t.Parallel()
		c, fx, err := load(t, run{args: []string{"--project-state-dir", "state"},
			project: "recursion_limit = 1", files: map[string]string{"state/config.toml": "recursion_limit = 2"}})
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(fx.projectDir, "state")
		if c.ProjectStateDir != want || c.RecursionLimit != 2 || len(c.Files) != 1 || c.Files[0] != filepath.Join(want, "config.toml") {
			t.Errorf("state dir %q, recursion %d, files %q", c.ProjectStateDir, c.RecursionLimit, c.Files)
		}
	})
	t.Run("user file sets the state dir", func(t *testing.T) {
		t.Parallel()
		c, fx, err := load(t, run{user: `project_state_dir = ".st"`, files: map[string]string{".st/config.toml": "show_cost = true"}})
		if err != nil {
			t.Fatal(err)
		}
		if c.ProjectStateDir != filepath.Join(fx.projectDir, ".st") || !c.ShowCost || len(c.Files) != 2 {
			t.Errorf("state dir %q, show cost %v, files %q", c.ProjectStateDir, c.ShowCost, c.Files)
		}
	})
	t.Run("policy lists are concatenated, user first", func(t *testing.T) {
		t.Parallel()
		c := mustLoad(t, run{
			user:    "[policy]\nallow = [\"git status\"]\ndeny = [\"rm -rf *\"]",
			project: "[policy]\nallow = [\"make test\"]\nask = [\"npm *\"]",
		})
		want := Policy{Allow: []string{"git status", "make test"}, Ask: []string{"npm *"}, Deny: []string{"rm -rf *"}}
		if !reflect.DeepEqual(c.Policy, want) {
			t.Errorf("Policy = %+v, want %+v", c.Policy, want)
		}
	})
	t.Run("environment extras", func(t *testing.T) {
		t.Parallel()
		c := mustLoad(t, run{env: map[string]string{"TAVILY_API_KEY": "tv", "TAVILY_BASE_URL": "http://127.0.0.1:9/", "AIDER_FLAGS": "yes-always, --model gpt-4.1 ,,dark-mode"}})
		want := []string{"--yes-always", "--model", "gpt-4.1", "--dark-mode"}
		if c.TavilyAPIKey.Value() != "tv" || c.TavilyBaseURL != "http://127.0.0.1:9/" || !reflect.DeepEqual(c.AiderFlags, want) {
			t.Errorf("tavily %q at %q, aider flags %q", c.TavilyAPIKey.Value(), c.TavilyBaseURL, c.AiderFlags)
		}
	})
	t.Run("keys never print", func(t *testing.T) {
		t.Parallel()
		c := mustLoad(t, run{env: map[string]string{"OPENAI_API_KEY": "sk-secret-123", "TAVILY_API_KEY": "tv-secret-456"}})
		for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
			if out := fmt.Sprintf(format, c); strings.Contains(out, "secret") {
				t.Errorf("%s leaks a key: %s", format, out)
			}
		}
	})
	t.Run("nil flag set", func(t *testing.T) {
		t.Parallel()
		c, err := Load(nil, nil, MapEnv(nil), Paths{ProjectDir: t.TempDir()})
		if err != nil || c.RecursionLimit != 100 {
			t.Fatalf("Load(nil...) = %v, %v", c, err)
		}
	})
}

func TestDefaultUserConfigFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"}, "/x/cfg/reach/config.toml"},
		{map[string]string{"XDG_CONFIG_HOME": "relative", "HOME": "/home/u"}, "/home/u/.config/reach/config.toml"},
		{map[string]string{"HOME": "/home/u"}, "/home/u/.config/reach/config.toml"},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			if got := DefaultUserConfigFile(MapEnv(tt.env)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBindFlags(t *testing.T) {
	t.Parallel()
	fs := pflag.NewFlagSet("reach", pflag.ContinueOnError)
	BindFlags(fs)
	want := map[string]string{ // name → default as pflag prints it
		"message": "", "msg-file": "", "provider": "openai", "model": "", "base-url": "",
		"expert-provider": "", "expert-model": "", "expert-base-url": "", "temperature": "0",
		"research-only": "false", "research-and-plan-only": "false", "chat": "false", "hil": "false",
		"no-expert": "false", "cowboy-mode": "false", "sandbox": "workspace-write", "allow-network": "false",
		"use-aider": "false", "aider-config": "", "test-cmd": "", "auto-test": "false",
		"max-test-cmd-retries": "3", "test-cmd-timeout": "300", "recursion-limit": "100", "max-cost": "0",
		"max-tokens": "0", "exit-at-limit": "false", "show-cost": "false", "custom-tools": "", "mcp-config": "",
		"output-format": "text", "project-state-dir": "./.reach", "wipe-project-memory": "false",
		"log-level": "warn", "no-tui": "false",
	}
	for name, def := range want {
		f := fs.Lookup(name)
		if f == nil {
			t.Errorf("--%s not registered", name)
			continue
		}
		if f.DefValue != def || f.Usage == "" {
			t.Errorf("--%s: default %q (want %q), usage %q", name, f.DefValue, def, f.Usage)
		}
	}
	count := 0
	fs.VisitAll(func(*pflag.Flag) { count++ })
	if count != len(want) {
		t.Errorf("%d flags registered, want %d", count, len(want))
	}
	for short, long := range map[string]string{"m": "message", "H": "hil"} {
		if f := fs.ShorthandLookup(short); f == nil || f.Name != long {
			t.Errorf("-%s is not --%s", short, long)
		}
	}
}

func TestUnreadableUserFile(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, run{})
	if err := os.MkdirAll(fx.userFile, 0o755); err != nil { // a directory where the file should be
		t.Fatal(err)
	}
	_, err := fx.load(t, run{})
	ue := asUsage(t, err)
	want := fx.userFile + ": cannot be read: is a directory: fix its permissions or remove it"
	if ue.Msg != want {
		t.Errorf("got  %q\nwant %q", ue.Msg, want)
	}
}
