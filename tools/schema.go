package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// The validator is google/jsonschema-go, which the MCP SDK links anyway:
// it initialises in well under a millisecond, where a second JSON-schema
// library cost every reach start 12-15 ms. It validates draft 2020-12 and
// draft-07.

// supportedDrafts are the $schema values the validator knows.
var supportedDrafts = map[string]bool{
	"": true,
	"http://json-schema.org/draft-07/schema#":      true,
	"https://json-schema.org/draft-07/schema#":     true,
	"https://json-schema.org/draft/2020-12/schema": true,
}

// compileSchema parses and resolves a tool's parameters schema. A schema
// that names another draft (draft-04 and -06 are still common in MCP
// servers) is validated as draft 2020-12, whose keywords cover what tool
// parameters use; one that does not even parse is an error.
func compileSchema(raw json.RawMessage) (*jsonschema.Resolved, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return nil, fmt.Errorf("parse parameters schema: %w", err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("compile parameters schema: %w", err)
	}
	if !supportedDrafts[s.Schema] {
		s.Schema = ""
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("compile parameters schema: %w", err)
	}
	return r, nil
}

// validateArgs checks raw arguments against a compiled schema and returns
// a message a model can act on, or "" when they are valid.
func validateArgs(s *jsonschema.Resolved, raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{}`)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Sprintf("arguments are not valid JSON: %v. Send a JSON object matching the tool's parameters", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return "arguments must be a JSON object, e.g. {\"name\": value}"
	}
	if s == nil {
		return ""
	}
	if err := s.Validate(v); err != nil {
		msg := describeValidation(err)
		if extra := topLevelHints(s.Schema(), v.(map[string]any), msg); extra != "" {
			msg += "; " + extra
		}
		return "arguments do not match the tool's schema: " + msg
	}
	return ""
}

// topLevelHints adds what the validator, which stops at the first
// failure, left unsaid about the top-level arguments: required ones that
// are missing and, when some argument is unknown, the names the tool
// takes. A model that misspelt "task_spec" as "spec" learns both at once.
func topLevelHints(root *jsonschema.Schema, args map[string]any, said string) string {
	if root == nil {
		return ""
	}
	var hints []string
	var missing []string
	for _, name := range root.Required {
		if _, ok := args[name]; !ok && !strings.Contains(said, strconv.Quote(name)) {
			missing = append(missing, strconv.Quote(name))
		}
	}
	if len(missing) > 0 {
		hints = append(hints, "missing required argument "+strings.Join(missing, ", "))
	}
	unknown := false
	for name := range args {
		if _, ok := root.Properties[name]; !ok {
			unknown = true
		}
	}
	if unknown && len(root.Properties) > 0 {
		names := make([]string, 0, len(root.Properties))
		for name := range root.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		hints = append(hints, "the tool takes: "+strings.Join(names, ", "))
	}
	return strings.Join(hints, "; ")
}

// describeValidation turns the validator's error, a chain of "validating
// <schema location>: " prefixes ending in the failed keyword, into "at
// <argument>: <keyword>: <what was wrong>", where the argument is named as
// in the arguments (/path/0/name), not as in the schema
// (/properties/path/items/properties/name).
func describeValidation(err error) string {
	msg := err.Error()
	loc := ""
	for {
		rest, ok := strings.CutPrefix(msg, "validating ")
		if !ok {
			break
		}
		where, tail, ok := strings.Cut(rest, ": ")
		if !ok {
			break
		}
		loc, msg = where, tail
	}
	msg = strings.TrimSpace(trimFloatZeros(msg))
	if names, ok := strings.CutPrefix(msg, "required: missing properties: "); ok {
		msg = "missing required argument " + listNames(names)
	} else if names, ok := strings.CutPrefix(msg, "unexpected additional properties "); ok {
		msg = "unknown argument " + listNames(names) + ": the tool does not take it; use only the parameters in its schema"
	}
	if arg := argumentPath(loc); arg != "" {
		return "at " + arg + ": " + msg
	}
	return msg
}

// listNames turns the validator's Go-quoted list `["a" "b"]` into `"a", "b"`.
func listNames(list string) string {
	return strings.Join(strings.Fields(strings.Trim(list, "[]")), ", ")
}

// argumentPath maps a schema location to the argument it checks:
// "/properties/a/items/properties/b" is "/a/*/b"; the root is "".
func argumentPath(loc string) string {
	if loc == "" || loc == "root" || !strings.HasPrefix(loc, "/") {
		return ""
	}
	parts := strings.Split(strings.TrimPrefix(loc, "/"), "/")
	var out []string
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties", "patternProperties", "prefixItems", "dependentSchemas":
			if i+1 < len(parts) {
				out = append(out, parts[i+1])
				i++
			}
		case "items", "additionalProperties", "additionalItems", "contains", "unevaluatedItems", "unevaluatedProperties":
			out = append(out, "*")
		case "anyOf", "oneOf", "allOf", "$defs", "definitions":
			i++ // skip the branch index or definition name
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "/" + strings.Join(out, "/")
}

// trimFloatZeros shortens the validator's numbers: "0/1 is less than
// 1.000000" reads "0 is less than 1".
func trimFloatZeros(s string) string {
	s = regexp.MustCompile(`\b(-?\d+)/1\b`).ReplaceAllString(s, "$1")
	var b strings.Builder
	for {
		i := strings.Index(s, ".000000")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+len(".000000"):]
	}
}
