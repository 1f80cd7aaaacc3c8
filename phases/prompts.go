package phases

import (
	"fmt"
	"strings"
	"time"
)

// Context is everything a phase's prompts may mention.
type Context struct {
	Task    string
	Project Project
	Date    time.Time

	ResearchSummary string   // the research phase's final reply
	ResearchNotes   []string // emit_research_notes
	Plan            []string // the planned tasks
	TaskIndex       int      // 1-based, implementation only
	TaskSpec        string

	ToolNames []string // offered tools, to mention optional ones only when present
	TestCmd   string

	// WorkingMemory is the session's key facts, snippets and related files
	// and what was recalled from earlier sessions, rendered by memory.
	WorkingMemory string
}

func (c Context) has(tool string) bool {
	for _, n := range c.ToolNames {
		if n == tool {
			return true
		}
	}
	return false
}

// SystemPrompt builds the system message of a phase.
func SystemPrompt(phase string, c Context) string {
	var b strings.Builder
	switch phase {
	case Research:
		b.WriteString(researchRole)
	case Planning:
		b.WriteString(planningRole)
	case Implementation:
		b.WriteString(implementationRole)
	case Chat:
		b.WriteString(chatRole)
	}
	b.WriteString(commonRules)
	if c.has("ask_expert") {
		b.WriteString("- For a hard question (a subtle bug, an architecture choice) gather context with emit_expert_context and call ask_expert; do not ask it what you can read yourself.\n")
	}
	if c.has("ask_human") {
		b.WriteString("- A human is available through ask_human. Ask when a decision is theirs to make or the task is ambiguous; do not ask what the code can tell you.\n")
	}
	if c.has("web_search_tavily") {
		b.WriteString("- Use web_search_tavily for facts outside the repository (library APIs, error messages); prefer the code itself for anything inside it.\n")
	}
	if c.has("run_programming_task") {
		b.WriteString("- Make changes with run_programming_task: tell aider the intent in plain words (what, where, why; at most 300 words, no code) and list the files to edit.\n")
	}
	if phase == Research && c.has("web_search_tavily") {
		section(&b, "Web or expert", webOrExpert(c.has("ask_expert")))
	}
	section(&b, "Working directory", c.Project.Root)
	if !c.Date.IsZero() {
		section(&b, "Date", c.Date.Format("2006-01-02"))
	}
	if c.Project.Instructions != "" {
		section(&b, "Project instructions ("+c.Project.InstructionsFile+")", c.Project.Instructions)
	}
	section(&b, "Project files", strings.TrimRight(c.Project.Listing, "\n"))
	section(&b, "The user's task", c.Task)
	if c.WorkingMemory != "" {
		section(&b, "Working memory", c.WorkingMemory)
	}
	if phase == Planning || phase == Implementation {
		if c.ResearchSummary != "" {
			section(&b, "Research summary", c.ResearchSummary)
		}
		if len(c.ResearchNotes) > 0 {
			section(&b, "Research notes", numbered(c.ResearchNotes))
		}
	}
	if phase == Implementation {
		if len(c.Plan) > 0 {
			section(&b, "The plan", numbered(c.Plan))
		}
		section(&b, fmt.Sprintf("Your task now (task %d of %d)", c.TaskIndex, max(len(c.Plan), 1)), c.TaskSpec)
		if c.TestCmd != "" {
			section(&b, "Test command", "After you finish, reach runs `"+c.TestCmd+"`; if it fails you get its output and another round.")
		}
	}
	return b.String()
}

// UserPrompt is the first user message of a phase.
func UserPrompt(phase string, c Context) string {
	switch phase {
	case Research:
		return "Research the codebase for this task, record what you learn with emit_research_notes, then reply with a short summary (no tool call) when you know enough to plan it:\n\n" + c.Task
	case Planning:
		return "Plan the implementation of this task. Call request_task_implementation once per task, in order; then reply with a one-paragraph summary of the plan:\n\n" + c.Task
	case Implementation:
		return fmt.Sprintf("Implement task %d of %d:\n\n%s\n\nWhen it is done, reply with what you changed (no tool call).", c.TaskIndex, max(len(c.Plan), 1), c.TaskSpec)
	}
	return c.Task
}

// webOrExpert tells the research phase which source answers which question.
func webOrExpert(expert bool) string {
	s := "Search the web when the answer is a published fact you cannot read in the repository: the API of a " +
		"dependency at the version the project uses, the meaning of an error message from a tool or library, a " +
		"breaking change in release notes. Search with specific terms (names, versions, the exact error text) and " +
		"check what you find against the code."
	if expert {
		s += " Ask the expert instead when the answer needs judgement about this code — why something fails, " +
			"which design fits — and give it the context it needs; do not ask it for facts a search would find."
	}
	return s
}

func section(b *strings.Builder, title, body string) {
	fmt.Fprintf(b, "\n# %s\n%s\n", title, body)
}

func numbered(xs []string) string {
	var b strings.Builder
	for i, x := range xs {
		fmt.Fprintf(&b, "%d. %s\n", i+1, strings.TrimSpace(x))
	}
	return strings.TrimRight(b.String(), "\n")
}

const researchRole = `You are reach, a coding agent, in its RESEARCH phase. Your job is to understand the parts of the
codebase the task touches: find the relevant files, read them, learn the conventions, the build and the
tests. You do not change anything in this phase.
`

const planningRole = `You are reach, a coding agent, in its PLANNING phase. Turn the task and the research into an ordered
list of small, concrete implementation tasks. Each task names the files to change, the change, and how to
check it. You do not change files in this phase.
`

const implementationRole = `You are reach, a coding agent, in its IMPLEMENTATION phase. Carry out exactly the task given below,
following the plan and the project's conventions. Make the smallest complete change; keep unrelated code
as it is.
`

const chatRole = `You are reach, a coding agent, talking with a developer in their repository. Answer questions by
reading the code, and make changes when asked.
`

const commonRules = `
Rules:
- Use the tools; never guess file contents. Paths are relative to the working directory.
- Read a file before you edit it. Use file_str_replace for targeted edits (old_str must match exactly and
  once) and put_complete_file_contents only for new files or full rewrites.
- Shell commands may need the user's approval and may be refused by policy; prefer the dedicated tools.
- When a tool returns an error, read it and change your call; do not repeat the same call.
- When you are done, reply without calling a tool.
`
