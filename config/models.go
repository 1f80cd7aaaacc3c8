package config

import (
	"fmt"
	"sort"
)

// ModelOverride corrects or extends the built-in model table for one model
// ([models."name"] in a config file): a context window and prices the
// table lacks or has wrong. Nil fields keep the built-in value.
type ModelOverride struct {
	ContextWindow *int     // tokens
	InputPerMTok  *float64 // USD per million input tokens
	OutputPerMTok *float64 // USD per million output tokens
}

// modelsSettings is the [models] table of one file.
type modelsSettings map[string]ModelOverride

// UnmarshalTOML implements toml.Unmarshaler so that a bad [models] entry is
// reported with what is wrong and how to write it.
func (m *modelsSettings) UnmarshalTOML(data any) error {
	const how = `write [models."gpt-4.1"] on its own line, then context_window = 1047576, input_per_mtok = 2.0, output_per_mtok = 8.0`
	table, ok := data.(map[string]any)
	if !ok {
		return typeError("a table: "+how, data)
	}
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	out := modelsSettings{}
	for _, name := range names {
		entry, ok := table[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%q: %w", name, typeError("a table: "+how, table[name]))
		}
		var o ModelOverride
		for key, v := range entry {
			switch key {
			case "context_window":
				n, ok := v.(int64)
				if !ok || n < 1024 {
					return fmt.Errorf("%q: context_window must be a whole number of tokens, at least 1024 (got %s)", name, describe(v))
				}
				w := int(n)
				o.ContextWindow = &w
			case "input_per_mtok", "output_per_mtok":
				var f float64
				switch x := v.(type) {
				case int64:
					f = float64(x)
				case float64:
					f = x
				default:
					return fmt.Errorf("%q: %s must be a price in US dollars per million tokens, such as 2.5 (got %s)", name, key, describe(v))
				}
				if f < 0 {
					return fmt.Errorf("%q: %s must not be negative (got %g)", name, key, f)
				}
				if key == "input_per_mtok" {
					o.InputPerMTok = &f
				} else {
					o.OutputPerMTok = &f
				}
			default:
				return fmt.Errorf("%q has an unknown key %q: the keys of a [models] entry are context_window, input_per_mtok and output_per_mtok", name, key)
			}
		}
		out[name] = o
	}
	*m = out
	return nil
}

// merge lays o over base, field by field.
func (o ModelOverride) merge(base ModelOverride) ModelOverride {
	if o.ContextWindow == nil {
		o.ContextWindow = base.ContextWindow
	}
	if o.InputPerMTok == nil {
		o.InputPerMTok = base.InputPerMTok
	}
	if o.OutputPerMTok == nil {
		o.OutputPerMTok = base.OutputPerMTok
	}
	return o
}
