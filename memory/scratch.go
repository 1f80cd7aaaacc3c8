// Package memory keeps what a run learns: research notes, planned tasks
// and facts. Scratch is the in-process store of one run.
package memory

import (
	"context"
	"errors"
	"strings"
	"sync"
)

// Scratch holds the notes and tasks of the current run. It is safe for
// concurrent use; the zero value is ready.
type Scratch struct {
	mu    sync.Mutex
	notes []string
	tasks []string
}

// AddResearchNote stores a note and returns its 1-based id.
func (s *Scratch) AddResearchNote(_ context.Context, note string) (int64, error) {
	note = strings.TrimSpace(note)
	if note == "" {
		return 0, errors.New("empty note")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notes = append(s.notes, note)
	return int64(len(s.notes)), nil
}

// AddTask appends a planned task and returns its 1-based position.
func (s *Scratch) AddTask(_ context.Context, spec string) (int64, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return 0, errors.New("empty task")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tasks = append(s.tasks, spec)
	return int64(len(s.tasks)), nil
}

// ResearchNotes returns the notes in the order they were added.
func (s *Scratch) ResearchNotes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.notes...)
}

// Tasks returns the planned tasks in order.
func (s *Scratch) Tasks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.tasks...)
}
