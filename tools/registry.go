package tools

import (
	"fmt"
	"sort"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Registry holds every tool known to a run, whatever its backend.
// It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	tools   map[string]Tool
	schemas map[string]*jsonschema.Resolved
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{tools: map[string]Tool{}, schemas: map[string]*jsonschema.Resolved{}}
}

// Register adds tools. A duplicate name or a schema that does not compile
// is an error: both are programming or configuration mistakes.
func (r *Registry) Register(ts ...Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range ts {
		if t.Spec.Name == "" {
			return fmt.Errorf("register tool: empty name")
		}
		if _, dup := r.tools[t.Spec.Name]; dup {
			return fmt.Errorf("register tool %s: already registered", t.Spec.Name)
		}
		if t.Run == nil {
			return fmt.Errorf("register tool %s: no handler", t.Spec.Name)
		}
		sch, err := compileSchema(t.Spec.Parameters)
		if err != nil {
			return fmt.Errorf("register tool %s: %w", t.Spec.Name, err)
		}
		if t.Spec.Backend == "" {
			t.Spec.Backend = "builtin"
		}
		if t.Spec.Version == "" {
			t.Spec.Version = "1"
		}
		r.tools[t.Spec.Name] = t
		r.schemas[t.Spec.Name] = sch
	}
	return nil
}

// Lookup returns the tool with the given name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

func (r *Registry) schema(name string) *jsonschema.Resolved {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.schemas[name]
}

// Specs returns every spec, sorted by name.
func (r *Registry) Specs() []Spec {
	return r.Select(func(Spec) bool { return true })
}

// Select returns the specs for which keep is true, sorted by name.
func (r *Registry) Select(keep func(Spec) bool) []Spec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []Spec
	for _, t := range r.tools {
		if keep(t.Spec) {
			out = append(out, t.Spec)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the names of specs, in order.
func Names(specs []Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}
