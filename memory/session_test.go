package memory

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

func newSession(t *testing.T, s *Store, task string) *Session {
	t.Helper()
	ctx := context.Background()
	id, err := s.Begin(ctx, NewSession{Task: task, Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := s.OpenSession(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

func TestSessionRecordsAndReloads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, stored := range []bool{true, false} {
		t.Run(fmt.Sprintf("stored=%v", stored), func(t *testing.T) {
			var ss *Session
			var s *Store
			if stored {
				s = openTest(t)
				ss = newSession(t, s, "task")
			} else {
				ss = InProcess()
			}
			if _, err := ss.AddResearchNote(ctx, "  "); err == nil {
				t.Error("empty note accepted")
			}
			if _, err := ss.AddKeyFacts(ctx, []string{"ok", " "}); err == nil || !strings.Contains(err.Error(), "fact 2 is empty") {
				t.Errorf("empty fact: %v", err)
			}
			if len(ss.KeyFacts()) != 0 {
				t.Fatal("a refused batch was partly stored")
			}
			ids, err := ss.AddKeyFacts(ctx, []string{"uses Go 1.26", "tests: go test ./..."})
			if err != nil || len(ids) != 2 || ids[0] == ids[1] {
				t.Fatalf("facts ids %v %v", ids, err)
			}
			if _, err := ss.AddResearchNote(ctx, "greet.go holds Greeting"); err != nil {
				t.Fatal(err)
			}
			if _, err := ss.AddKeySnippet(ctx, Snippet{Filepath: "greet.go", LineNumber: 4, Snippet: "func Greeting() string", Description: "entry"}); err != nil {
				t.Fatal(err)
			}
			added, err := ss.AddRelatedFiles(ctx, []string{"a.go", "b.go", "a.go"})
			if err != nil || len(added) != 2 {
				t.Fatalf("related %v %v", added, err)
			}
			if added, _ := ss.AddRelatedFiles(ctx, []string{"b.go"}); len(added) != 0 {
				t.Fatalf("b.go added twice: %v", added)
			}
			if n, err := ss.AddTask(ctx, "task one"); err != nil || n != 1 {
				t.Fatalf("task %d %v", n, err)
			}
			hid, err := ss.AddHumanInput(ctx, "yes, do it", "hil")
			if err != nil || ss.LastHumanInput() != hid {
				t.Fatalf("human input %d/%d %v", hid, ss.LastHumanInput(), err)
			}
			if !stored {
				return
			}
			again, err := s.OpenSession(ctx, ss.ID(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := again.ResearchNotes(); len(got) != 1 || got[0] != "greet.go holds Greeting" {
				t.Errorf("notes %v", got)
			}
			if got := again.KeyFacts(); len(got) != 2 || got[1].Content != "tests: go test ./..." {
				t.Errorf("facts %v", got)
			}
			if got := again.RelatedFiles(ctx); strings.Join(got, ",") != "a.go,b.go" {
				t.Errorf("files %v", got)
			}
			if got := again.KeySnippets(); len(got) != 1 || got[0].LineNumber != 4 {
				t.Errorf("snippets %v", got)
			}
			if got := again.Tasks(); len(got) != 1 {
				t.Errorf("tasks %v", got)
			}
		})
	}
}

func TestFactsMergeAndPruneOnlyEarlierSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	old := newSession(t, s, "old")
	for i := range 6 {
		if _, err := old.AddKeyFacts(ctx, []string{fmt.Sprintf("old fact %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	cur := newSession(t, s, "new")
	cur.limits.Facts = 4
	// A fact known from before moves to the current session (merged).
	if _, err := cur.AddKeyFacts(ctx, []string{"OLD FACT 0 "}); err != nil {
		t.Fatal(err)
	}
	many := []string{"n1", "n2", "n3", "n4", "n5"}
	if _, err := cur.AddKeyFacts(ctx, many); err != nil {
		t.Fatal(err)
	}
	all, err := s.Facts(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var mine, theirs []string
	for _, f := range all {
		if f.Session == cur.ID() {
			mine = append(mine, f.Content)
		} else {
			theirs = append(theirs, f.Content)
		}
	}
	// Every fact of the current session survives, even over the limit.
	if strings.Join(mine, ",") != "OLD FACT 0,n1,n2,n3,n4,n5" {
		t.Fatalf("current session facts: %v", mine)
	}
	if len(theirs) != 0 {
		t.Fatalf("earlier facts should all be pruned (limit 4, 6 current): %v", theirs)
	}
}

func TestHumanInputKeepsTheNewest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	ss := newSession(t, s, "t")
	ss.limits.HumanInput = 3
	for i := range 5 {
		if _, err := ss.AddHumanInput(ctx, fmt.Sprintf("answer %d", i), "chat"); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.HumanInputs(ctx)
	if err != nil || len(got) != 3 || got[0].Content != "answer 2" || got[2].Source != "chat" {
		t.Fatalf("human input: %+v %v", got, err)
	}
}

func TestRecallByRelevance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	old := newSession(t, s, "old")
	if _, err := old.AddKeyFacts(ctx, []string{
		"The database layer lives in store/sqlite.go and uses WAL mode",
		"CSS is compiled with sass",
		"Release builds are made by goreleaser",
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := old.AddResearchNote(ctx, "The HTTP router registers handlers in server/routes.go; auth middleware in server/auth.go"); err != nil {
		t.Fatal(err)
	}
	cur := newSession(t, s, "new")
	if _, err := cur.AddKeyFacts(ctx, []string{"current database fact"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  string // the best hit's text contains this; "" means no hit
	}{
		{"add an index to the sqlite database", "store/sqlite.go"},
		{"protect the routes with auth", "server/routes.go"},
		{"translate the README to French", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := s.Recall(ctx, cur.ID(), tt.query, 2)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("recalled %v for an unrelated query", got)
				}
				return
			}
			if len(got) == 0 || !strings.Contains(got[0].Text, tt.want) {
				t.Fatalf("recalled %+v, want %q first", got, tt.want)
			}
			for _, r := range got {
				if r.Session == cur.ID() {
					t.Fatalf("recalled the current session's own memory: %+v", r)
				}
			}
		})
	}
	wm, err := cur.WorkingMemory(ctx, "sqlite database index")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Key facts", "current database fact", "earlier sessions", "store/sqlite.go"} {
		if !strings.Contains(wm, want) {
			t.Errorf("working memory lacks %q:\n%s", want, wm)
		}
	}
	if strings.Contains(wm, "sass") || strings.Contains(wm, "goreleaser") {
		t.Errorf("working memory dumped unrelated memory:\n%s", wm)
	}
}

func TestWorkingMemoryPicksRelevantFactsWhenOverBudget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ss := InProcess()
	var facts []string
	for i := range maxPromptFacts + 10 {
		facts = append(facts, fmt.Sprintf("filler fact number %d", i))
	}
	facts[0] = "the payment gateway retries thrice"
	if _, err := ss.AddKeyFacts(ctx, facts); err != nil {
		t.Fatal(err)
	}
	wm, err := ss.WorkingMemory(ctx, "payment gateway")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(wm, "\n- "); got != maxPromptFacts {
		t.Errorf("%d facts in the prompt, want %d", got, maxPromptFacts)
	}
	if !strings.Contains(wm, "payment gateway") || !strings.Contains(wm, fmt.Sprintf("filler fact number %d", maxPromptFacts+9)) {
		t.Errorf("the relevant and the newest facts must be kept:\n%s", wm)
	}
}

func TestTrajectoryRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	ss := newSession(t, s, "t")
	hid, _ := ss.AddHumanInput(ctx, "go", "hil")
	before := s.Commits()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := []Step{
		{Phase: "research", Kind: KindModelTurn, Output: "thinking", InputTokens: 100, OutputTokens: 20, CostUSD: 0.01, HumanInput: hid, At: at},
		{Phase: "research", Kind: KindToolCall, Name: "ripgrep_search", Arguments: `{"pattern":"x"}`, Success: false, Error: "bad regex", DurationMS: 12, At: at},
	}
	if err := s.AppendTrajectory(ctx, ss.ID(), steps); err != nil {
		t.Fatal(err)
	}
	if got := s.Commits() - before; got != 1 {
		t.Fatalf("%d commits for one batch", got)
	}
	got, err := s.Trajectory(ctx, ss.ID())
	if err != nil || len(got) != 2 {
		t.Fatalf("trajectory %v %v", got, err)
	}
	if got[0].HumanInput != hid || got[0].InputTokens != 100 || got[1].Error != "bad regex" || got[1].Success || !got[1].At.Equal(at) {
		t.Fatalf("round trip: %+v", got)
	}
}
