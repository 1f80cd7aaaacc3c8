package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

func compileSchema(name string, raw json.RawMessage) (*jsonschema.Schema, error) {
	if len(raw) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parse parameters schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	url := "mem://tools/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("add parameters schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compile parameters schema: %w", err)
	}
	return s, nil
}

// validateArgs checks raw arguments against a compiled schema and returns
// a message a model can act on, or "" when they are valid.
func validateArgs(s *jsonschema.Schema, raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{}`)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Sprintf("arguments are not valid JSON: %v. Send a JSON object matching the tool's parameters", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return "arguments must be a JSON object, e.g. {\"name\": value}"
	}
	if s == nil {
		return ""
	}
	err = s.Validate(v)
	if err == nil {
		return ""
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return "arguments do not match the tool's schema: " + describeValidation(ve)
	}
	return "arguments do not match the tool's schema: " + err.Error()
}

// describeValidation flattens the leaf causes into "at /x: msg" lines.
func describeValidation(ve *jsonschema.ValidationError) string {
	printer := message.NewPrinter(language.English)
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			msg := e.ErrorKind.LocalizedString(printer)
			if loc == "/" {
				leaves = append(leaves, msg)
			} else {
				leaves = append(leaves, "at "+loc+": "+msg)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(leaves, "; ")
}
