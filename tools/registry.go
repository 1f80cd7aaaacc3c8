package tools

import (
	"errors"
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
	schemas map[string]*schema
}

// schema is a tool's compiled parameters schema, compiled when the tool
// is registered or, for trusted tools, on its first call.
type schema struct {
	once sync.Once
	raw  []byte
	res  *jsonschema.Resolved
	err  error
}

func (s *schema) compiled() (*jsonschema.Resolved, error) {
	s.once.Do(func() { s.res, s.err = compileSchema(s.raw) })
	return s.res, s.err
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{tools: map[string]Tool{}, schemas: map[string]*schema{}}
}

// Register adds tools. A duplicate name or a schema that does not compile
// is an error: both are programming or configuration mistakes.
func (r *Registry) Register(ts ...Tool) error {
	return r.register(false, ts)
}

// RegisterTrusted adds tools whose schemas are known to compile (reach's
// own tools, checked by their tests with CheckSchemas): each is compiled
// on the tool's first call rather than here, which keeps about 3 ms of
// schema compilation off every start of reach.
func (r *Registry) RegisterTrusted(ts ...Tool) error {
	return r.register(true, ts)
}

func (r *Registry) register(lazy bool, ts []Tool) error {
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
		sch := &schema{raw: t.Spec.Parameters}
		if !lazy {
			if _, err := sch.compiled(); err != nil {
				return fmt.Errorf("register tool %s: %w", t.Spec.Name, err)
			}
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

// CheckSchemas compiles every schema not compiled yet and reports those
// that fail, so tests can hold trusted tools to what Register checks.
func (r *Registry) CheckSchemas() error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var errs []error
	for _, name := range sortedKeys(r.schemas) {
		if _, err := r.schemas[name].compiled(); err != nil {
			errs = append(errs, fmt.Errorf("tool %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// Lookup returns the tool with the given name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

func (r *Registry) schema(name string) (*jsonschema.Resolved, error) {
	r.mu.RLock()
	s := r.schemas[name]
	r.mu.RUnlock()
	if s == nil {
		return nil, nil
	}
	return s.compiled()
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
