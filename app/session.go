package app

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/reach-agent/reach/agent"
	"github.com/reach-agent/reach/approval"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/expert"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/memory"
	"github.com/reach-agent/reach/phases"
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/human"
	"github.com/reach-agent/reach/version"
	"github.com/reach-agent/reach/workspace"
)

// sessionRun is the memory side of one run: the project database, the
// session row, its memory and the trajectory recorder.
type sessionRun struct {
	store    *memory.Store
	mem      *memory.Session
	rec      *memory.Recorder
	sink     events.Sink // the run's sink wrapped by the recorder
	progress *agent.Progress
	now      func() time.Time
}

// dbPath is the project database of cfg.
func dbPath(cfg *config.Config) string {
	return filepath.Join(cfg.ProjectStateDir, memory.DBFile)
}

// startSession opens the project database (wiping it first with
// --wipe-project-memory), records a new session or reopens the one being
// resumed, and wraps sink with the trajectory recorder.
func startSession(ctx context.Context, t Task, sink events.Sink, now func() time.Time) (*sessionRun, error) {
	cfg := t.Cfg
	if err := cfg.RequireTask(); err != nil {
		return nil, err
	}
	if err := cfg.CheckCredentials(); err != nil {
		return nil, err
	}
	store, err := memory.Open(ctx, dbPath(cfg))
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			store.Close()
		}
	}()
	if cfg.WipeProjectMemory {
		if t.ResumeID != 0 {
			return nil, &config.UsageError{Flag: "--wipe-project-memory", Msg: "--wipe-project-memory would delete the session being resumed; leave it out"}
		}
		if err := store.Wipe(ctx); err != nil {
			return nil, err
		}
		sink.Emit(events.Notice{Level: "info", Text: "project memory wiped (" + store.Path() + ")"})
	}
	run := &sessionRun{store: store, now: now}
	id := t.ResumeID
	if id != 0 {
		info, err := store.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if _, alive := runnerState(info, thisProcess()); alive {
			return nil, &config.UsageError{Msg: fmt.Sprintf("session %d is still running in process %d; let it finish or stop it (kill %d), then resume it", id, info.Runner.PID, info.Runner.PID)}
		}
		if err := store.Reopen(ctx, id, thisProcess()); err != nil {
			return nil, err
		}
		run.progress = progressOf(info)
	} else {
		id, err = store.Begin(ctx, memory.NewSession{
			CommandLine: t.CommandLine, Version: version.String(), Task: cfg.Task(), Settings: settingsOf(cfg), Start: now(),
			Runner: thisProcess(),
		})
		if err != nil {
			return nil, err
		}
	}
	if run.mem, err = store.OpenSession(ctx, id, now); err != nil {
		return nil, err
	}
	run.rec = memory.NewRecorder(sink, store, id, run.mem.LastHumanInput)
	run.sink = run.rec
	ok = true
	return run, nil
}

func settingsOf(cfg *config.Config) memory.Settings {
	return memory.Settings{
		Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL,
		ResearchOnly: cfg.ResearchOnly, ResearchAndPlanOnly: cfg.ResearchAndPlanOnly, Chat: cfg.Chat, HIL: cfg.HIL,
		UseAider: cfg.UseAider, TestCmd: cfg.TestCmd,
	}
}

func progressOf(info memory.SessionInfo) *agent.Progress {
	p := &agent.Progress{ResearchDone: info.ResearchDone, ResearchSummary: info.ResearchSummary, PlanDone: info.PlanDone, TasksDone: info.TasksDone()}
	if info.PlanDone {
		for _, t := range info.Plan {
			p.Plan = append(p.Plan, t.Spec)
		}
	}
	return p
}

// id is the session id as events show it.
func (s *sessionRun) id() string {
	if s == nil {
		return ""
	}
	return strconv.FormatInt(s.mem.ID(), 10)
}

// toolbox builds the run's toolbox over the session memory and adds the
// expert tools (unless --no-expert) and ask_human (with --hil or --chat).
func (s *sessionRun) toolbox(root *workspace.Root, gate tools.Gate, cfg *config.Config, prompter approval.Prompter, meter *agent.Meter) (*Toolbox, error) {
	tb, err := newToolbox(root, gate, s.mem)
	if err != nil {
		return nil, err
	}
	var extra []tools.Tool
	if !cfg.NoExpert {
		ex := &expert.Expert{
			Client: newClient(cfg.Expert), Model: cfg.Expert.Model, Root: root, Memory: s.mem,
			OnUsage: func(ctx context.Context, resp llm.Response) {
				// Over budget shows at the next model turn, which ends the run.
				_ = meter.Add(ctx, resp)
			},
		}
		extra = append(extra, ex.Tools()...)
	}
	if cfg.HIL {
		source := "hil"
		if cfg.Chat {
			source = "chat"
		}
		reader, _ := prompter.(human.Reader)
		if reader == nil {
			extra = append(extra, human.Tool(nil, s.mem, source))
		} else {
			extra = append(extra, human.Tool(reader, s.mem, source))
		}
	}
	if err := tb.Registry.RegisterTrusted(extra...); err != nil {
		return nil, fmt.Errorf("register memory tools: %w", err)
	}
	return tb, nil
}

// configure hooks the runner to the session: resume point, step records,
// working memory, compaction.
func (s *sessionRun) configure(r *agent.Runner, cfg *config.Config, client llm.Client, meter *agent.Meter) {
	r.Resume = s.progress
	r.Steps = &sessionSteps{store: s.store, mem: s.mem}
	r.WorkingMemory = func(ctx context.Context, _ string, c phases.Context) string {
		wm, err := s.mem.WorkingMemory(ctx, c.Task+"\n"+c.TaskSpec)
		if err != nil {
			s.sink.Emit(events.Notice{Level: "warn", Text: "working memory left out of the prompt: " + err.Error()})
		}
		return wm
	}
	info, _ := modelInfo(cfg, cfg.Model)
	comp := &agent.Compactor{Client: client, Model: cfg.Model, Window: info.ContextWindow, Sink: s.sink, Meter: meter}
	r.Loop.Compact = comp.Compact
}

// drive runs the task, or the conversation with --chat.
func (s *sessionRun) drive(ctx context.Context, r *agent.Runner, t Task, prompter approval.Prompter) (agent.Report, error) {
	cfg := t.Cfg
	if !cfg.Chat {
		return r.Run(ctx, cfg.Task())
	}
	reader, _ := prompter.(human.Reader)
	if reader == nil && !t.IO.IsStdinTTY() {
		// Piped input: the whole of it is one message.
		reader = human.NewConsole(t.IO.In, t.IO.ErrOut, false)
	}
	next := func(ctx context.Context) (string, error) {
		if reader == nil {
			return "", io.EOF
		}
		msg, err := reader.ReadMessage(ctx, "\nYou (an empty message ends the chat):")
		if err != nil {
			return "", err
		}
		if _, err := s.mem.AddHumanInput(ctx, msg, "chat"); err != nil && msg != "" {
			s.sink.Emit(events.Notice{Level: "warn", Text: "chat message not saved: " + err.Error()})
		}
		return msg, nil
	}
	if s.progress != nil { // a resumed chat: carry on the conversation
		history, err := s.chatHistory(ctx)
		if err != nil {
			return agent.Report{}, err
		}
		r.ChatHistory = history
		s.sink.Emit(events.Notice{Level: "info", Text: fmt.Sprintf("chat resumed with its %d earlier messages", len(history)/2)})
		return r.Chat(ctx, "", next)
	}
	if cfg.Task() != "" {
		if _, err := s.mem.AddHumanInput(ctx, cfg.Task(), "chat"); err != nil {
			s.sink.Emit(events.Notice{Level: "warn", Text: "chat message not saved: " + err.Error()})
		}
	}
	return r.Chat(ctx, cfg.Task(), next)
}

// chatHistory is the stored conversation of the session as model messages:
// each chat message of the human, then the reply the agent gave it (or a
// note that none was recorded, for a run killed before it answered).
func (s *sessionRun) chatHistory(ctx context.Context) ([]llm.Message, error) {
	ex, err := s.store.ChatTranscript(ctx, s.mem.ID())
	if err != nil {
		return nil, err
	}
	msgs := make([]llm.Message, 0, 2*len(ex))
	for _, e := range ex {
		reply := e.Reply
		if reply == "" {
			reply = "(no reply was recorded: the earlier run stopped before answering)"
		}
		msgs = append(msgs, llm.Message{Role: llm.User, Content: e.Human}, llm.Message{Role: llm.Assistant, Content: reply})
	}
	return msgs, nil
}

// finish records how the run ended, writes the rest of the trajectory
// and closes the database. It runs after the result event.
func (s *sessionRun) finish(code int, tot agent.Totals) {
	if s == nil {
		return
	}
	s.rec.Close()
	st := memory.StatusFailed
	switch code {
	case ExitOK:
		st = memory.StatusCompleted
	case ExitLimit:
		st = memory.StatusLimit
	case ExitInterrupted:
		st = memory.StatusInterrupted
	}
	// A fresh context: the run's may be cancelled (Ctrl+C), the record must still be written.
	ctx, cancel := context.WithTimeout(context.Background(), 2*memory.BusyTimeout)
	defer cancel()
	if err := s.store.Finish(ctx, s.mem.ID(), st, s.now(), tot.Usage.PromptTokens, tot.Usage.CompletionTokens, tot.CostUSD); err != nil {
		s.rec.Emit(events.Notice{Level: "warn", Text: "session end not recorded: " + err.Error()})
	}
	s.store.Close()
}

// sessionSteps records completed steps in the database (agent.StepRecorder).
type sessionSteps struct {
	store *memory.Store
	mem   *memory.Session
}

func (s *sessionSteps) ResearchDone(ctx context.Context, summary string) error {
	return s.store.MarkResearchDone(ctx, s.mem.ID(), summary)
}

func (s *sessionSteps) PlanStarting(ctx context.Context) error { return s.mem.ResetTasks(ctx) }

func (s *sessionSteps) PlanDone(ctx context.Context, plan []string) error {
	return s.store.MarkPlanDone(ctx, s.mem.ID(), plan)
}

func (s *sessionSteps) TaskDone(ctx context.Context, index int) error {
	return s.store.MarkTaskDone(ctx, s.mem.ID(), index)
}
