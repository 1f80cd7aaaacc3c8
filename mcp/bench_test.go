package mcp

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/reach-agent/reach/tools"
)

// BenchmarkRegister300Tools measures starting a stdio server with 303
// tools (the SDK test server), listing them and registering them: the
// work a run does once before its first model request.
func BenchmarkRegister300Tools(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Servers: map[string]ServerConfig{"big": {Command: exe, Args: []string{"-test.run=^$", "-test.bench=^$"}, Env: map[string]string{serverEnv: "big"}}}}
	dir := b.TempDir()
	for b.Loop() {
		m := NewManager(cfg, Options{Dir: dir, CallTimeout: 10 * time.Second})
		ts, err := m.Tools(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		reg := tools.NewRegistry()
		if err := reg.Register(ts...); err != nil {
			b.Fatal(err)
		}
		if len(ts) != 303 {
			b.Fatalf("%d tools", len(ts))
		}
		m.Close()
	}
}
