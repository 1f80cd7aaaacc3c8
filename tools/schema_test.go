package tools

import (
	"context"
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

// TestTrustedSchemaCompiledOnFirstCall: RegisterTrusted defers the
// compilation; a broken schema then surfaces as a tool error the model can
// act on and in CheckSchemas, never as a crash.
func TestTrustedSchemaCompiledOnFirstCall(t *testing.T) {
	run := func(context.Context, json.RawMessage) Result { return OK("ran") }
	r := NewRegistry()
	good := Tool{Spec: Spec{Name: "good", Summary: "s", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}, Run: run}
	bad := Tool{Spec: Spec{Name: "bad", Summary: "s", Parameters: json.RawMessage(`{"type":12}`)}, Run: run}
	if err := r.Register(bad); err == nil {
		t.Fatal("Register accepted a schema that does not compile")
	}
	if err := r.RegisterTrusted(good, bad); err != nil {
		t.Fatalf("RegisterTrusted: %v", err)
	}
	e := &Executor{Registry: r}
	offered := []string{"good", "bad"}
	cases := []struct {
		name, tool, args, want string
		ok                     bool
	}{
		{"good, valid", "good", `{"n":1}`, "ran", true},
		{"good, invalid", "good", `{"n":"x"}`, "at /n: type", false},
		{"broken schema", "bad", `{}`, "its parameters schema is broken", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.Execute(context.Background(), Call{ID: "1", Name: c.tool, Arguments: c.args}, offered)
			if res.Success != c.ok || !strings.Contains(res.Output+res.Error, c.want) {
				t.Errorf("got success=%v %q %q, want success=%v and %q", res.Success, res.Output, res.Error, c.ok, c.want)
			}
		})
	}
	err := r.CheckSchemas()
	if err == nil || !strings.Contains(err.Error(), "tool bad") || strings.Contains(err.Error(), "tool good") {
		t.Errorf("CheckSchemas = %v, want only the broken tool", err)
	}
}
