package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateArgsMessages(t *testing.T) {
	schema := `{
	  "type": "object",
	  "properties": {
	    "depth": {"type": "integer", "minimum": 1, "maximum": 64},
	    "paths": {"type": "array", "items": {"type": "object",
	      "properties": {"name": {"type": "string", "minLength": 1}}, "required": ["name"]}},
	    "mode": {"enum": ["fast", "exact"]}
	  },
	  "required": ["depth"],
	  "additionalProperties": false
	}`
	s, err := compileSchema(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, args, want string
	}{
		{"valid", `{"depth": 3, "paths": [{"name": "a"}], "mode": "fast"}`, ""},
		{"empty means {}", ``, `missing required argument "depth"`},
		{"not JSON", `{"depth": `, "arguments are not valid JSON"},
		{"not an object", `[1]`, "arguments must be a JSON object"},
		{"below minimum", `{"depth": 0}`, "at /depth: minimum: 0 is less than 1"},
		{"wrong type", `{"depth": "deep"}`, `at /depth: type: deep has type "string", want "integer"`},
		{"fraction for integer", `{"depth": 1.5}`, "at /depth: type"},
		{"nested item", `{"depth": 1, "paths": [{"name": ""}]}`, "at /paths/*/name: minLength"},
		{"nested required", `{"depth": 1, "paths": [{}]}`, `at /paths/*: missing required argument "name"`},
		{"enum", `{"depth": 1, "mode": "slow"}`, "at /mode: enum: slow does not equal any of: [fast exact]"},
		{"unknown argument", `{"depth": 1, "colour": "red"}`, `unknown argument "colour"`},
		{"misspelt required argument", `{"dpth": 1}`, `missing required argument "depth"; the tool takes: depth, mode, paths`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := validateArgs(s, json.RawMessage(c.args))
			if c.want == "" {
				if got != "" {
					t.Fatalf("valid arguments refused: %s", got)
				}
				return
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("got %q, want it to contain %q", got, c.want)
			}
		})
	}
}

func TestCompileSchemaDrafts(t *testing.T) {
	cases := []struct {
		name, schema, args string
		wantErr, wantMsg   string
	}{
		{"draft-07", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["q"]}`, `{}`, "", "missing required"},
		{"draft-04 validated as 2020-12", `{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"n": {"type": "integer"}}}`, `{"n": "x"}`, "", "at /n: type"},
		{"no schema at all", ``, `{"anything": 1}`, "", ""},
		{"keyword of the wrong type", `{"type": 12}`, "", "compile parameters schema", ""},
		{"not JSON", `{`, "", "parse parameters schema", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := compileSchema(json.RawMessage(c.schema))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := validateArgs(s, json.RawMessage(c.args))
			if (c.wantMsg == "") != (got == "") || !strings.Contains(got, c.wantMsg) {
				t.Errorf("validate %s: got %q, want %q", c.args, got, c.wantMsg)
			}
		})
	}
}
