package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"
)

// run describes one invocation: flags, environment and config files.
type run struct {
	args    []string
	env     map[string]string
	user    string            // content of the user config file; "" = no file
	project string            // content of <project>/.reach/config.toml; "" = no file
	files   map[string]string // more files, relative to the project dir
}

// fixture lays out a project and a home directory under t.TempDir.
type fixture struct {
	projectDir, userFile string
}

func newFixture(t *testing.T, r run) fixture {
	t.Helper()
	root := t.TempDir()
	fx := fixture{
		projectDir: filepath.Join(root, "project"),
		userFile:   filepath.Join(root, "home", ".config", "reach", "config.toml"),
	}
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(fx.projectDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if r.user != "" {
		write(fx.userFile, r.user)
	}
	if r.project != "" {
		write(filepath.Join(fx.projectDir, ".reach", "config.toml"), r.project)
	}
	for name, content := range r.files {
		write(filepath.Join(fx.projectDir, name), content)
	}
	return fx
}

func (fx fixture) load(t *testing.T, r run) (*Config, error) {
	t.Helper()
	fs := pflag.NewFlagSet("reach", pflag.ContinueOnError)
	flags := BindFlags(fs)
	if err := fs.Parse(r.args); err != nil {
		t.Fatalf("parse %v: %v", r.args, err)
	}
	return Load(fs, flags, MapEnv(r.env), Paths{ProjectDir: fx.projectDir, UserConfigFile: fx.userFile})
}

// load runs Load for r in a fresh fixture.
func load(t *testing.T, r run) (*Config, fixture, error) {
	t.Helper()
	fx := newFixture(t, r)
	c, err := fx.load(t, r)
	return c, fx, err
}

// mustLoad is load that fails the test on an error.
func mustLoad(t *testing.T, r run) *Config {
	t.Helper()
	c, _, err := load(t, r)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

// withKey adds OPENAI_API_KEY to an environment, for tests about other things.
func withKey(env map[string]string) map[string]string {
	out := map[string]string{"OPENAI_API_KEY": "sk-main"}
	for k, v := range env {
		out[k] = v
	}
	return out
}
