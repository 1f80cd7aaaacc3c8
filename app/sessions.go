package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/iostreams"
	"github.com/reach-agent/reach/memory"
)

// openExisting opens the project database for reading sessions; ok is
// false when the project has none yet (nothing is created then).
func openExisting(ctx context.Context, cfg *config.Config) (*memory.Store, bool, error) {
	path := dbPath(cfg)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	s, err := memory.Open(ctx, path)
	if err != nil {
		return nil, false, err
	}
	return s, true, nil
}

// ListSessions prints the project's sessions, newest first.
func ListSessions(ctx context.Context, io *iostreams.IOStreams, cfg *config.Config) error {
	store, ok, err := openExisting(ctx, cfg)
	if err != nil || !ok {
		if err == nil {
			fmt.Fprintf(io.Out, "No sessions yet in %s.\n", cfg.ProjectStateDir)
		}
		return err
	}
	defer store.Close()
	list, err := store.List(ctx, 0)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintf(io.Out, "No sessions yet in %s.\n", cfg.ProjectStateDir)
		return nil
	}
	w := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tSTARTED\tSTATUS\tPROGRESS\tCOST\tTASK")
	self := thisProcess()
	for _, s := range list {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t$%.4f\t%s\n", s.ID, s.StartedAt.Local().Format("2006-01-02 15:04"), shownStatus(s, self), progressText(s), s.CostUSD, firstLine(s.Task, 60))
	}
	return w.Flush()
}

// progressText says how far a session got.
func progressText(s memory.SessionInfo) string {
	switch {
	case s.Settings.Chat:
		return "chat"
	case s.PlanDone:
		return fmt.Sprintf("%d/%d tasks", s.TasksDone(), len(s.Plan))
	case s.ResearchDone:
		return "researched"
	}
	return "-"
}

// ShowSession prints one session: task, settings, plan, phases, tool
// calls and what it cost.
func ShowSession(ctx context.Context, io *iostreams.IOStreams, cfg *config.Config, arg string) error {
	id, err := parseSessionID(arg)
	if err != nil {
		return err
	}
	store, ok, err := openExisting(ctx, cfg)
	if err != nil {
		return err
	}
	if !ok {
		return noSession(cfg, id)
	}
	defer store.Close()
	s, err := store.Get(ctx, id)
	if errors.Is(err, memory.ErrNoSession) {
		return noSession(cfg, id)
	}
	if err != nil {
		return err
	}
	steps, err := store.Trajectory(ctx, id)
	if err != nil {
		return err
	}
	out := io.Out
	self := thisProcess()
	if note := statusNote(s, self); note != "" {
		fmt.Fprintf(out, "Session %d — %s (%s)\n", s.ID, shownStatus(s, self), note)
	} else {
		fmt.Fprintf(out, "Session %d — %s\n", s.ID, s.Status)
	}
	fmt.Fprintf(out, "Task:     %s\n", s.Task)
	fmt.Fprintf(out, "Command:  %s\n", s.CommandLine)
	fmt.Fprintf(out, "Version:  %s\n", s.Version)
	fmt.Fprintf(out, "Model:    %s/%s\n", s.Settings.Provider, s.Settings.Model)
	fmt.Fprintf(out, "Started:  %s\n", s.StartedAt.Local().Format(time.DateTime))
	if !s.EndedAt.IsZero() {
		fmt.Fprintf(out, "Ended:    %s (%s)\n", s.EndedAt.Local().Format(time.DateTime), s.EndedAt.Sub(s.StartedAt).Round(time.Second))
	}
	if _, alive := runnerState(s, self); alive {
		fmt.Fprintf(out, "Running now in process %d.\n", s.Runner.PID)
	} else if s.Status != memory.StatusCompleted {
		fmt.Fprintf(out, "Not finished: `reach resume %d` continues it from its last completed step.\n", s.ID)
	}
	if len(s.Plan) > 0 {
		fmt.Fprintln(out, "\nPlan:")
		for _, t := range s.Plan {
			mark := " "
			if t.Done {
				mark = "x"
			}
			fmt.Fprintf(out, "  [%s] %d. %s\n", mark, t.Position, firstLine(t.Spec, 100))
		}
	}
	writeTrajectory(io, steps)
	return nil
}

func writeTrajectory(io *iostreams.IOStreams, steps []memory.Step) {
	out := io.Out
	type phaseCount struct{ turns, calls int }
	var order []string
	counts := map[string]*phaseCount{}
	in, outTok, cost := 0, 0, 0.0
	for _, st := range steps {
		if st.Phase != "" && counts[st.Phase] == nil {
			counts[st.Phase] = &phaseCount{}
			order = append(order, st.Phase)
		}
		switch st.Kind {
		case memory.KindModelTurn:
			in, outTok, cost = in+st.InputTokens, outTok+st.OutputTokens, cost+st.CostUSD
			if c := counts[st.Phase]; c != nil {
				c.turns++
			}
		case memory.KindToolCall:
			if c := counts[st.Phase]; c != nil {
				c.calls++
			}
		}
	}
	if len(order) > 0 {
		fmt.Fprintln(out, "\nPhases:")
		for _, p := range order {
			fmt.Fprintf(out, "  %-15s %d model turns, %d tool calls\n", p, counts[p].turns, counts[p].calls)
		}
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	header := false
	for _, st := range steps {
		if st.Kind == memory.KindModelTurn {
			continue
		}
		if !header {
			fmt.Fprintln(out, "\nTool calls:")
			header = true
		}
		result := "ok"
		if !st.Success {
			result = "error: " + firstLine(st.Error, 60)
		}
		if st.Kind == memory.KindError {
			fmt.Fprintf(w, "  %s\t%s\t\t%s\n", st.Phase, "run ended", result)
			continue
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s (%d ms)\n", st.Phase, st.Name, firstLine(st.Arguments, 60), result, st.DurationMS)
	}
	w.Flush()
	fmt.Fprintf(out, "\nTokens: %d in, %d out · cost $%.4f\n", in, outTok, cost)
}

func parseSessionID(arg string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(arg), 10, 64)
	if err != nil || id <= 0 {
		return 0, &config.UsageError{Msg: fmt.Sprintf("%q is not a session id: give the number shown by reach sessions list", arg)}
	}
	return id, nil
}

func noSession(cfg *config.Config, id int64) error {
	return &config.UsageError{Msg: fmt.Sprintf("session %d does not exist in %s; reach sessions list shows the sessions there", id, cfg.ProjectStateDir)}
}

func firstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return s
}

// ResumeTask continues a session (the latest when arg is empty) from its
// last completed step, with the stored task and phase settings; provider
// and approval settings given now override the stored ones, and the
// stored model is kept unless --model or --provider is given.
func ResumeTask(ctx context.Context, t Task, arg string, changed func(flag string) bool) (int, error) {
	cfg := t.Cfg
	if changed("message") || changed("msg-file") {
		return ExitUsage, &config.UsageError{Flag: "--message", Msg: "reach resume continues the stored task; start a new task with reach -m instead"}
	}
	s, err := findSession(ctx, cfg, arg)
	if err != nil {
		return ExitCode(err), err
	}
	if s.Status == memory.StatusCompleted && !s.Settings.Chat {
		fmt.Fprintf(t.IO.ErrOut, "Session %d already completed; nothing to resume.\n", s.ID)
		return ExitOK, nil
	}
	cfg.Message, cfg.MsgFile = s.Task, ""
	st := s.Settings
	cfg.ResearchOnly, cfg.ResearchAndPlanOnly, cfg.Chat, cfg.UseAider = st.ResearchOnly, st.ResearchAndPlanOnly, st.Chat, st.UseAider
	cfg.HIL = cfg.HIL || st.HIL || st.Chat
	if cfg.TestCmd == "" {
		cfg.TestCmd = st.TestCmd
	}
	if !changed("model") && !changed("provider") && st.Model != "" && st.Provider == cfg.Provider {
		cfg.Model = st.Model
	}
	fmt.Fprintf(t.IO.ErrOut, "Resuming session %d (%s): %s\n", s.ID, progressText(s), firstLine(s.Task, 80))
	t.ResumeID = s.ID
	return RunTask(ctx, t), nil
}

// findSession loads session arg, or the latest when arg is empty.
func findSession(ctx context.Context, cfg *config.Config, arg string) (memory.SessionInfo, error) {
	var id int64
	if arg != "" {
		var err error
		if id, err = parseSessionID(arg); err != nil {
			return memory.SessionInfo{}, err
		}
	}
	store, ok, err := openExisting(ctx, cfg)
	if err != nil {
		return memory.SessionInfo{}, err
	}
	nothing := &config.UsageError{Msg: fmt.Sprintf("no sessions in %s: nothing to resume", cfg.ProjectStateDir)}
	if !ok {
		return memory.SessionInfo{}, nothing
	}
	defer store.Close()
	if id == 0 {
		if id, err = store.Latest(ctx); errors.Is(err, memory.ErrNoSession) {
			return memory.SessionInfo{}, nothing
		} else if err != nil {
			return memory.SessionInfo{}, err
		}
	}
	s, err := store.Get(ctx, id)
	if errors.Is(err, memory.ErrNoSession) {
		return s, noSession(cfg, id)
	}
	return s, err
}
