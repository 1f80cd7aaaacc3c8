package config

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Env looks up an environment variable; os.LookupEnv fits. Tests pass
// MapEnv. A variable set to the empty string counts as unset.
type Env func(key string) (string, bool)

// MapEnv returns an Env that reads from m.
func MapEnv(m map[string]string) Env {
	return func(key string) (string, bool) {
		v, ok := m[key]
		return v, ok
	}
}

func (e Env) get(key string) string {
	if e == nil || key == "" {
		return ""
	}
	v, _ := e(key)
	return v
}

// Paths says where the run happens and where the user's config file lives.
type Paths struct {
	// ProjectDir is the project root (normally the working directory).
	// Relative paths from flags and files are resolved against it.
	ProjectDir string
	// UserConfigFile is the user's config file; "" to read none. See
	// DefaultUserConfigFile.
	UserConfigFile string
}

// DefaultUserConfigFile returns $XDG_CONFIG_HOME/reach/config.toml, else
// $HOME/.config/reach/config.toml, else "" (no user file).
func DefaultUserConfigFile(env Env) string {
	if xdg := env.get("XDG_CONFIG_HOME"); filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "reach", "config.toml")
	}
	if home := env.get("HOME"); home != "" {
		return filepath.Join(home, ".config", "reach", "config.toml")
	}
	return ""
}

type layerKind int

const (
	fileLayer layerKind = iota
	envLayer
	flagLayer
)

// layer is one source of settings, lowest precedence first in a resolver.
type layer struct {
	kind    layerKind
	file    string            // fileLayer: the file
	envVars map[string]string // envLayer: flag name → the variable that set it
	s       settings
}

// label names where a setting came from, for messages: "--recursion-limit",
// "REACH_MODEL", or "recursion_limit in /p/.reach/config.toml".
func (l *layer) label(name string) string {
	switch l.kind {
	case flagLayer:
		return "--" + name
	case envLayer:
		return l.envVars[name]
	default:
		return strings.ReplaceAll(name, "-", "_") + " in " + l.file
	}
}

func newEnvLayer(env Env) *layer {
	l := &layer{kind: envLayer, envVars: map[string]string{}}
	set := func(name string, dst *opt[string], vars ...string) {
		for _, v := range vars {
			if val := env.get(v); val != "" {
				*dst = some(val)
				l.envVars[name] = v
				return
			}
		}
	}
	set("provider", &l.s.Provider, "REACH_PROVIDER")
	set("model", &l.s.Model, "REACH_MODEL")
	set("base-url", &l.s.BaseURL, "OPENAI_BASE_URL", "OPENAI_API_BASE")
	set("expert-base-url", &l.s.ExpertBaseURL, "EXPERT_OPENAI_BASE_URL", "EXPERT_OPENAI_API_BASE")
	return l
}

// resolver merges the layers and remembers where each value came from.
type resolver struct {
	layers []*layer
	labels map[string]string
	paths  Paths
}

// find returns the highest layer's value of a setting and records its source.
func find[T any](r *resolver, name string, get func(*settings) opt[T]) (T, bool) {
	for i := len(r.layers) - 1; i >= 0; i-- {
		if v := get(&r.layers[i].s); v.Set {
			r.labels[name] = r.layers[i].label(name)
			return v.V, true
		}
	}
	var zero T
	return zero, false
}

func pick[T any](r *resolver, name string, get func(*settings) opt[T], def T) T {
	if v, ok := find(r, name, get); ok {
		return v
	}
	return def
}

func pickPtr[T any](r *resolver, name string, get func(*settings) opt[T]) *T {
	if v, ok := find(r, name, get); ok {
		return &v
	}
	return nil
}

// label names the source of a resolved setting; the flag when it was a default.
func (r *resolver) label(name string) string {
	if l, ok := r.labels[name]; ok {
		return l
	}
	return "--" + name
}

// providerAt is the provider in effect at layer i: the highest setting at or
// below it, else fallback(i).
func (r *resolver) providerAt(i int, get func(*settings) opt[string], fallback func(int) string) string {
	for j := i; j >= 0; j-- {
		if v := get(&r.layers[j].s); v.Set {
			return v.V
		}
	}
	return fallback(i)
}

func (r *resolver) mainAt(i int) string {
	return r.providerAt(i, func(s *settings) opt[string] { return s.Provider }, func(int) string { return DefaultProvider })
}

func (r *resolver) expertAt(i int) string {
	return r.providerAt(i, func(s *settings) opt[string] { return s.ExpertProvider }, r.mainAt)
}

// scoped returns the highest value of a provider-bound setting whose layer
// matches: flags always do; other layers when match(i) holds.
func (r *resolver) scoped(name string, get func(*settings) opt[string], match func(i int) bool) (string, bool) {
	for i := len(r.layers) - 1; i >= 0; i-- {
		l := r.layers[i]
		if v := get(&l.s); v.Set && (l.kind == flagLayer || match(i)) {
			r.labels[name] = l.label(name)
			return v.V, true
		}
	}
	return "", false
}

func (r *resolver) abs(p string) string {
	if p == "" || filepath.IsAbs(p) || r.paths.ProjectDir == "" {
		return p
	}
	return filepath.Join(r.paths.ProjectDir, p)
}

// Load builds the run's Config from the flags the user gave on fs (bound by
// BindFlags; fs and flags may be nil), the environment, the project and user
// config files, and the defaults, then validates it and reads --msg-file.
// Every error is a *UsageError. It does not check credentials: see
// CheckCredentials.
func Load(fs *pflag.FlagSet, flags *Flags, env Env, paths Paths) (*Config, error) {
	r := &resolver{labels: map[string]string{}, paths: paths}
	flagL := &layer{kind: flagLayer, s: flags.settings(fs)}

	c := &Config{}
	if paths.UserConfigFile != "" {
		s, ok, err := readFile(paths.UserConfigFile, userFile)
		if err != nil {
			return nil, err
		}
		if ok {
			r.layers = append(r.layers, &layer{kind: fileLayer, file: paths.UserConfigFile, s: s})
			c.Files = append(c.Files, paths.UserConfigFile)
		}
	}
	// The project file lives in the state dir, so only the flag and the user
	// file can move it.
	r.layers = append(r.layers, flagL)
	stateDir := pick(r, "project-state-dir", func(s *settings) opt[string] { return s.ProjectStateDir }, DefaultStateDir)
	r.layers = r.layers[:len(r.layers)-1]
	if strings.TrimSpace(stateDir) == "" {
		return nil, usagef("--project-state-dir", "%s must not be empty: give a directory, e.g. ./.reach", r.label("project-state-dir"))
	}
	c.ProjectStateDir = r.abs(stateDir)
	projectConfig := filepath.Join(c.ProjectStateDir, "config.toml")
	s, ok, err := readFile(projectConfig, projectFile)
	if err != nil {
		return nil, err
	}
	if ok {
		r.layers = append(r.layers, &layer{kind: fileLayer, file: projectConfig, s: s})
		c.Files = append(c.Files, projectConfig)
	}
	r.layers = append(r.layers, newEnvLayer(env), flagL)

	r.resolveEndpoints(c, env)
	r.resolveRest(c, env)
	if err := r.validate(c); err != nil {
		return nil, err
	}
	return c, nil
}

func (r *resolver) resolveEndpoints(c *Config, env Env) {
	P := pick(r, "provider", func(s *settings) opt[string] { return s.Provider }, DefaultProvider)
	prov, _ := LookupProvider(P)
	sameMain := func(i int) bool { return r.mainAt(i) == P }
	c.Provider = P
	c.Model = prov.DefaultModel
	if m, ok := r.scoped("model", func(s *settings) opt[string] { return s.Model }, sameMain); ok {
		c.Model = m
	}
	c.BaseURL = prov.DefaultBaseURL
	if u, ok := r.scoped("base-url", func(s *settings) opt[string] { return s.BaseURL }, func(i int) bool {
		if r.layers[i].kind == envLayer {
			return openAIFamily(P)
		}
		return sameMain(i)
	}); ok {
		c.BaseURL = u
	}
	c.APIKeyEnv = prov.KeyEnv
	if v, ok := r.scoped("api-key-env", func(s *settings) opt[string] { return s.APIKeyEnv }, sameMain); ok {
		c.APIKeyEnv = v
	}
	c.APIKey = Secret(env.get(c.APIKeyEnv))

	E := pick(r, "expert-provider", func(s *settings) opt[string] { return s.ExpertProvider }, P)
	eprov, _ := LookupProvider(E)
	sameExpert := func(i int) bool { return r.expertAt(i) == E }
	c.Expert.Provider = E
	c.Expert.Model, c.Expert.BaseURL = eprov.DefaultModel, eprov.DefaultBaseURL
	if E == P {
		c.Expert.Model, c.Expert.BaseURL = c.Model, c.BaseURL
	}
	if m, ok := r.scoped("expert-model", func(s *settings) opt[string] { return s.ExpertModel }, sameExpert); ok {
		c.Expert.Model = m
	}
	if u, ok := r.scoped("expert-base-url", func(s *settings) opt[string] { return s.ExpertBaseURL }, func(i int) bool {
		if r.layers[i].kind == envLayer {
			return openAIFamily(E)
		}
		return sameExpert(i)
	}); ok {
		c.Expert.BaseURL = u
	}
	if v, ok := r.scoped("expert-api-key-env", func(s *settings) opt[string] { return s.ExpertAPIKeyEnv }, sameExpert); ok {
		c.Expert.APIKeyEnv = v
		c.Expert.APIKey = Secret(env.get(v))
		return
	}
	base := eprov.KeyEnv
	if E == P {
		base = c.APIKeyEnv
	}
	c.Expert.APIKeyEnv = base
	if base != "" && env.get("EXPERT_"+base) != "" {
		c.Expert.APIKeyEnv = "EXPERT_" + base
	}
	c.Expert.APIKey = Secret(env.get(c.Expert.APIKeyEnv))
}

func (r *resolver) resolveRest(c *Config, env Env) {
	boolOf := func(name string, get func(*settings) opt[bool]) bool { return pick(r, name, get, false) }
	strOf := func(name string, get func(*settings) opt[string], def string) string { return pick(r, name, get, def) }
	intOf := func(name string, get func(*settings) opt[int], def int) int { return pick(r, name, get, def) }

	c.Message = strOf("message", func(s *settings) opt[string] { return s.Message }, "")
	c.MsgFile = r.abs(strOf("msg-file", func(s *settings) opt[string] { return s.MsgFile }, ""))
	c.Temperature = pickPtr(r, "temperature", func(s *settings) opt[float64] { return s.Temperature })
	c.ResearchOnly = boolOf("research-only", func(s *settings) opt[bool] { return s.ResearchOnly })
	c.ResearchAndPlanOnly = boolOf("research-and-plan-only", func(s *settings) opt[bool] { return s.ResearchAndPlanOnly })
	c.Chat = boolOf("chat", func(s *settings) opt[bool] { return s.Chat })
	c.HIL = boolOf("hil", func(s *settings) opt[bool] { return s.HIL }) || c.Chat
	c.NoExpert = boolOf("no-expert", func(s *settings) opt[bool] { return s.NoExpert })
	c.Cowboy = boolOf("cowboy-mode", func(s *settings) opt[bool] { return s.Cowboy })
	c.Sandbox = Sandbox(strOf("sandbox", func(s *settings) opt[string] { return s.Sandbox }, string(DefaultSandbox)))
	c.AllowNetwork = boolOf("allow-network", func(s *settings) opt[bool] { return s.AllowNetwork })
	c.UseAider = boolOf("use-aider", func(s *settings) opt[bool] { return s.UseAider })
	c.AiderConfig = r.abs(strOf("aider-config", func(s *settings) opt[string] { return s.AiderConfig }, ""))
	c.AiderFlags = parseAiderFlags(env.get("AIDER_FLAGS"))
	c.TestCmd = strOf("test-cmd", func(s *settings) opt[string] { return s.TestCmd }, "")
	c.AutoTest = boolOf("auto-test", func(s *settings) opt[bool] { return s.AutoTest })
	c.MaxTestCmdRetries = intOf("max-test-cmd-retries", func(s *settings) opt[int] { return s.MaxTestCmdRetries }, DefaultMaxTestCmdRetries)
	secs := intOf("test-cmd-timeout", func(s *settings) opt[int] { return s.TestCmdTimeout }, int(DefaultTestCmdTimeout/time.Second))
	c.TestCmdTimeout = time.Duration(secs) * time.Second
	c.RecursionLimit = intOf("recursion-limit", func(s *settings) opt[int] { return s.RecursionLimit }, DefaultRecursionLimit)
	c.MaxCost = pickPtr(r, "max-cost", func(s *settings) opt[float64] { return s.MaxCost })
	c.MaxTokens = pickPtr(r, "max-tokens", func(s *settings) opt[int] { return s.MaxTokens })
	c.ExitAtLimit = boolOf("exit-at-limit", func(s *settings) opt[bool] { return s.ExitAtLimit })
	c.ShowCost = boolOf("show-cost", func(s *settings) opt[bool] { return s.ShowCost })
	c.CustomTools = r.abs(strOf("custom-tools", func(s *settings) opt[string] { return s.CustomTools }, ""))
	c.MCPConfig = r.abs(strOf("mcp-config", func(s *settings) opt[string] { return s.MCPConfig }, ""))
	if c.MCPConfig == "" {
		if p := filepath.Join(c.ProjectStateDir, "mcp.json"); isFile(p) {
			c.MCPConfig = p
		}
	}
	c.TavilyAPIKey = Secret(env.get("TAVILY_API_KEY"))
	c.TavilyBaseURL = env.get("TAVILY_BASE_URL")
	c.EmbeddingModel = env.get("REACH_EMBEDDING_MODEL")
	c.OutputFormat = OutputFormat(strOf("output-format", func(s *settings) opt[string] { return s.OutputFormat }, string(DefaultOutputFormat)))
	c.WipeProjectMemory = boolOf("wipe-project-memory", func(s *settings) opt[bool] { return s.WipeProjectMemory })
	c.NoTUI = boolOf("no-tui", func(s *settings) opt[bool] { return s.NoTUI })
	for _, l := range r.layers {
		c.Policy.Allow = append(c.Policy.Allow, l.s.Policy.Allow.V...)
		c.Policy.Ask = append(c.Policy.Ask, l.s.Policy.Ask.V...)
		c.Policy.Deny = append(c.Policy.Deny, l.s.Policy.Deny.V...)
		for name, o := range l.s.Models {
			if c.Models == nil {
				c.Models = map[string]ModelOverride{}
			}
			c.Models[name] = o.merge(c.Models[name])
		}
	}
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
