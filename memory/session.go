package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Session is the memory of one run: what its tools record goes to the
// store (when there is one) and is mirrored in memory, so reads never touch
// the database. A Session without a store keeps everything in process (for
// `reach tools call`). It is safe for concurrent use.
type Session struct {
	store  *Store // nil: in process only
	id     int64
	limits Limits
	now    func() time.Time

	mu       sync.Mutex
	notes    []Note
	facts    []Fact
	snippets []Snippet
	files    []string
	tasks    []string
	nextID   int64 // ids for in-process rows

	lastHuman atomic.Int64
}

// InProcess returns a Session that keeps its memory in process only.
func InProcess() *Session {
	return &Session{limits: DefaultLimits(), now: time.Now}
}

// OpenSession returns the Session of an existing session id, loading what
// it already recorded (for a resume, the notes, facts, snippets, related
// files and any plan written so far).
func (s *Store) OpenSession(ctx context.Context, id int64, now func() time.Time) (*Session, error) {
	if now == nil {
		now = time.Now
	}
	ss := &Session{store: s, id: id, limits: DefaultLimits(), now: now}
	var err error
	if ss.notes, err = s.Notes(ctx, id); err != nil {
		return nil, err
	}
	if ss.facts, err = s.Facts(ctx, id); err != nil {
		return nil, err
	}
	if ss.snippets, err = s.Snippets(ctx, id); err != nil {
		return nil, err
	}
	if ss.files, err = s.RelatedFiles(ctx, id); err != nil {
		return nil, err
	}
	info, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, t := range info.Plan {
		ss.tasks = append(ss.tasks, t.Spec)
	}
	return ss, nil
}

// ID is the session id (0 in process).
func (ss *Session) ID() int64 { return ss.id }

// Store is the database behind the session, nil in process.
func (ss *Session) Store() *Store { return ss.store }

func (ss *Session) localID() int64 {
	ss.nextID++
	return ss.nextID
}

// AddResearchNote stores a research note and returns its id.
func (ss *Session) AddResearchNote(ctx context.Context, note string) (int64, error) {
	note = strings.TrimSpace(note)
	if note == "" {
		return 0, errors.New("empty note: give the findings as text")
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	id := ss.localID()
	if ss.store != nil {
		var err error
		if id, err = ss.store.insertNote(ctx, ss.id, note, ss.now(), ss.limits.Notes); err != nil {
			return 0, err
		}
	}
	ss.notes = append(ss.notes, Note{ID: id, Session: ss.id, Content: note})
	return id, nil
}

// AddTask appends a planned task and returns its 1-based position.
func (ss *Session) AddTask(ctx context.Context, spec string) (int64, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return 0, errors.New("empty task: describe the task in task_spec")
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	pos := int64(len(ss.tasks) + 1)
	if ss.store != nil {
		var err error
		if pos, err = ss.store.addTask(ctx, ss.id, spec); err != nil {
			return 0, err
		}
	}
	ss.tasks = append(ss.tasks, spec)
	return pos, nil
}

// ResetTasks forgets the tasks of an unfinished planning phase, before it
// runs again on a resume.
func (ss *Session) ResetTasks(ctx context.Context) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.store != nil {
		if err := ss.store.ResetPlan(ctx, ss.id); err != nil {
			return err
		}
	}
	ss.tasks = nil
	return nil
}

// AddKeyFacts stores facts and returns their ids. Empty facts are refused.
func (ss *Session) AddKeyFacts(ctx context.Context, facts []string) ([]int64, error) {
	clean := make([]string, 0, len(facts))
	for i, f := range facts {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("fact %d is empty: give each fact as a non-empty sentence", i+1)
		}
		clean = append(clean, f)
	}
	if len(clean) == 0 {
		return nil, errors.New("no facts given")
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var ids []int64
	if ss.store != nil {
		var err error
		if ids, err = ss.store.insertFacts(ctx, ss.id, clean, ss.now(), ss.limits.Facts); err != nil {
			return nil, err
		}
	} else {
		for range clean {
			ids = append(ids, ss.localID())
		}
	}
	for i, f := range clean {
		ss.facts = append(ss.facts, Fact{ID: ids[i], Session: ss.id, Content: f})
	}
	return ids, nil
}

// AddKeySnippet stores a snippet and returns its id.
func (ss *Session) AddKeySnippet(ctx context.Context, sn Snippet) (int64, error) {
	if strings.TrimSpace(sn.Snippet) == "" {
		return 0, errors.New("empty snippet: give the code to remember")
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	id := ss.localID()
	if ss.store != nil {
		var err error
		if id, err = ss.store.insertSnippet(ctx, ss.id, sn, ss.now(), ss.limits.Snippets); err != nil {
			return 0, err
		}
	}
	sn.ID, sn.Session = id, ss.id
	ss.snippets = append(ss.snippets, sn)
	return id, nil
}

// AddRelatedFiles registers project-relative paths, once each, and returns
// the ones that were new.
func (ss *Session) AddRelatedFiles(ctx context.Context, paths []string) ([]string, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	known := map[string]bool{}
	for _, f := range ss.files {
		known[f] = true
	}
	var added []string
	for _, p := range paths {
		if !known[p] {
			known[p] = true
			added = append(added, p)
		}
	}
	if ss.store != nil && len(added) > 0 {
		if err := ss.store.insertRelatedFiles(ctx, ss.id, added, ss.now()); err != nil {
			return nil, err
		}
	}
	ss.files = append(ss.files, added...)
	return added, nil
}

// AddHumanInput stores an answer of the human; later trajectory rows point
// at it.
func (ss *Session) AddHumanInput(ctx context.Context, content, source string) (int64, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	id := ss.localID()
	if ss.store != nil {
		var err error
		if id, err = ss.store.insertHumanInput(ctx, ss.id, content, source, ss.now(), ss.limits.HumanInput); err != nil {
			return 0, err
		}
	}
	ss.lastHuman.Store(id)
	return id, nil
}

// LastHumanInput is the id of the newest human input of this run, 0 none.
func (ss *Session) LastHumanInput() int64 { return ss.lastHuman.Load() }

// ResearchNotes returns the notes' texts in order.
func (ss *Session) ResearchNotes() []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]string, len(ss.notes))
	for i, n := range ss.notes {
		out[i] = n.Content
	}
	return out
}

// Tasks returns the planned tasks in order.
func (ss *Session) Tasks() []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return append([]string(nil), ss.tasks...)
}

// KeyFacts returns the session's facts in order.
func (ss *Session) KeyFacts() []Fact {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return append([]Fact(nil), ss.facts...)
}

// KeySnippets returns the session's snippets in order.
func (ss *Session) KeySnippets() []Snippet {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return append([]Snippet(nil), ss.snippets...)
}

// RelatedFiles returns the registered files (relative to the project
// root) in order. ctx is unused: the files are held in memory.
func (ss *Session) RelatedFiles(context.Context) []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return append([]string(nil), ss.files...)
}
