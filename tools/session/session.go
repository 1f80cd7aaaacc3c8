// Package session holds the tools that record into the run's memory:
// research notes and the planned tasks.
package session

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/reach-agent/reach/tools"
)

// NoteStore keeps research notes.
type NoteStore interface {
	AddResearchNote(ctx context.Context, note string) (int64, error)
}

// TaskStore keeps the plan's tasks in order.
type TaskStore interface {
	AddTask(ctx context.Context, spec string) (int64, error)
}

// ResearchNotes is emit_research_notes.
func ResearchNotes(store NoteStore) tools.Tool {
	return tools.Typed(tools.Spec{
		Name:       "emit_research_notes",
		Summary:    "Record research findings (what exists, where, how it works, what must change) so the planner and the implementer can use them. Use it once you have learned something worth keeping; not for questions or plans.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"notes":{"type":"string","minLength":1,"description":"The findings, in markdown."}},"required":["notes"],"additionalProperties":false}`),
		SideEffect: tools.Write,
		Groups:     []string{tools.GroupResearch},
	}, func(ctx context.Context, args struct {
		Notes string `json:"notes"`
	}) tools.Result {
		id, err := store.AddResearchNote(ctx, args.Notes)
		if err != nil {
			return tools.Fail(fmt.Sprintf("store research note: %v", err))
		}
		return tools.OK(fmt.Sprintf("Research note #%d stored.", id))
	})
}

// RequestTask is request_task_implementation: the planner calls it once per
// task, in order.
func RequestTask(store TaskStore) tools.Tool {
	return tools.Typed(tools.Spec{
		Name:       "request_task_implementation",
		Summary:    "Add one implementation task to the plan. Call it once per task, in the order they must be done; each task_spec must say which files to change, what to change and how to check it. Planning phase only.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"task_spec":{"type":"string","minLength":1,"description":"A self-contained description of one task: files, the change, acceptance check."}},"required":["task_spec"],"additionalProperties":false}`),
		SideEffect: tools.Write,
		Groups:     []string{tools.GroupPlanning},
	}, func(ctx context.Context, args struct {
		TaskSpec string `json:"task_spec"`
	}) tools.Result {
		n, err := store.AddTask(ctx, args.TaskSpec)
		if err != nil {
			return tools.Fail(fmt.Sprintf("record task: %v", err))
		}
		return tools.OK(fmt.Sprintf("Task %d recorded. It will be implemented after planning ends, in order.", n))
	})
}
