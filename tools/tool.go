// Package tools holds the tool registry, the executor every call passes
// through, and the built-in tools of reach.
package tools

import (
	"context"
	"encoding/json"
	"time"
)

// SideEffect says what a tool may change; approval and policy key off it.
type SideEffect string

const (
	Read    SideEffect = "read"
	Write   SideEffect = "write"
	Exec    SideEffect = "exec"
	Network SideEffect = "network"
)

// Group tags used by phases to select their toolsets.
const (
	GroupBase           = "base"           // offered in every phase
	GroupResearch       = "research"       // research phase extras
	GroupPlanning       = "planning"       // planning phase extras
	GroupImplementation = "implementation" // implementation phase extras (edit tools)
	GroupAider          = "aider"          // implementation extras with --use-aider
)

// Spec is the data that describes a tool: what the model sees, what
// retrieval ranks and what the executor validates against.
type Spec struct {
	Name       string          `json:"name"`
	Summary    string          `json:"summary"`
	Parameters json.RawMessage `json:"parameters"`
	SideEffect SideEffect      `json:"side_effect"`
	Idempotent bool            `json:"idempotent"`
	Timeout    time.Duration   `json:"timeout"`
	Scopes     []string        `json:"scopes,omitempty"`
	Groups     []string        `json:"groups"`
	Backend    string          `json:"backend"`
	Version    string          `json:"version"`
}

// HasGroup reports whether the spec is tagged with g.
func (s Spec) HasGroup(g string) bool {
	for _, x := range s.Groups {
		if x == g {
			return true
		}
	}
	return false
}

// Result is what every tool returns: success plus output or error.
type Result struct {
	Success    bool   `json:"success"`
	Output     string `json:"output,omitempty"`
	Error      string `json:"error,omitempty"`
	ReturnCode *int   `json:"return_code,omitempty"`
}

// OK builds a successful result.
func OK(output string) Result { return Result{Success: true, Output: output} }

// Fail builds a failed result with a message meant for the model.
func Fail(msg string) Result { return Result{Success: false, Error: msg} }

// Handler runs a tool with its already validated JSON arguments.
type Handler func(ctx context.Context, args json.RawMessage) Result

// Tool is a spec plus the function that carries it out.
type Tool struct {
	Spec Spec
	Run  Handler
}

// Typed builds a Tool whose handler receives its arguments decoded into A
// (after the executor has validated them against the schema).
func Typed[A any](spec Spec, run func(ctx context.Context, args A) Result) Tool {
	return Tool{Spec: spec, Run: func(ctx context.Context, raw json.RawMessage) Result {
		a, err := Decode[A](raw)
		if err != nil {
			return Fail(err.Error())
		}
		return run(ctx, a)
	}}
}
