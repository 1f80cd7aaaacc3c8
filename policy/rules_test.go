package policy

import (
	"strings"
	"testing"

	"github.com/reach-agent/reach/approval"
)

func TestSandboxedUnknownTargetIsAsked(t *testing.T) {
	t.Parallel()
	strict, _ := testPolicy(t, false)
	boxed, _ := testPolicy(t, true)
	for _, cmd := range []string{"find . -name '*.o' | xargs rm", "rm -rf $(cat list)", "cd $(mktemp -d) && touch x"} {
		t.Run(cmd, func(t *testing.T) {
			if got := strict.Decide(cmd).Action; got != D {
				t.Errorf("without a sandbox: got %v, want deny", got)
			}
			if got := boxed.Decide(cmd).Action; got != Q {
				t.Errorf("with a sandbox: got %v, want ask", got)
			}
		})
	}
	// Hard denies hold with a sandbox too.
	if got := boxed.Decide("rm -rf ~").Action; got != D {
		t.Errorf("rm -rf ~ under a sandbox: got %v, want deny", got)
	}
}

func TestReportListsSimpleCommandsAndReadOnly(t *testing.T) {
	t.Parallel()
	p, _ := testPolicy(t, false)
	tests := []struct {
		cmd      string
		readOnly bool
		commands []string
	}{
		{"ls -la && git status", true, []string{"ls -la", "git status"}},
		{"cat go.mod | head -n 3", true, []string{"cat go.mod", "head -n 3"}},
		{"echo hi > out.txt", false, []string{"echo hi", "> out.txt"}},
		{"timeout 5 go test ./...", false, []string{"go test ./..."}},
		{`bash -c "ls; rm x"`, false, []string{"ls", "rm x"}},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			rep := p.Check(tc.cmd)
			if rep.ReadOnly != tc.readOnly {
				t.Errorf("ReadOnly = %v, want %v", rep.ReadOnly, tc.readOnly)
			}
			var got []string
			for _, s := range rep.Commands {
				got = append(got, s.Command)
			}
			for _, want := range tc.commands {
				if !contains(got, want) {
					t.Errorf("commands %q do not include %q", got, want)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestUserRules(t *testing.T) {
	t.Parallel()
	_, root := testPolicy(t, false)
	p, err := New(Options{Root: root, Env: []string{"HOME=/home/tester"}, TempDirs: []string{},
		Allow: []string{"go test  # go test ./...; go test -run X ./policy", "npm run *"},
		Ask:   []string{"git log"},
		Deny:  []string{"curl # curl -s http://x", "git push"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd  string
		want approval.Action
		rule string
	}{
		{"go test ./...", A, "user-allow:go test"},
		{"timeout 60 go test -race ./x", A, "user-allow:go test"},
		{"npm run lint", A, "user-allow:npm run *"},
		{"npm install", Q, "not-read-only"},
		{"git log -n 1", Q, "user-ask:git log"},
		{"curl -s http://example.com", D, "user-deny:curl"},
		{"env curl x", D, "user-deny:curl"},
		{"git push origin feature", D, "user-deny:git push"},
		// An allow rule never lifts a hard deny.
		{"go test ./... && rm -rf ~", D, "outside-root"},
		{"go test > /etc/x", D, "outside-root"},
		// It covers the command's own writes inside the root.
		{"go test ./... > test.log", A, "user-allow:go test"},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			v := p.Decide(tc.cmd)
			if v.Action != tc.want || v.Rule != tc.rule {
				t.Errorf("got %v %q (%s), want %v %q", v.Action, v.Rule, v.Reason, tc.want, tc.rule)
			}
		})
	}
}

func TestRuleExamplesAreChecked(t *testing.T) {
	t.Parallel()
	_, root := testPolicy(t, false)
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"typo in the rule", Options{Allow: []string{"go tset # go test ./..."}}, `does not match its example "go test ./..."`},
		{"empty rule", Options{Deny: []string{"  # x"}}, "has no command"},
		{"bad glob", Options{Ask: []string{"npm [run"}}, "bad pattern"},
		{"allow over a hard deny", Options{Allow: []string{"rm # rm -rf /"}}, "denied by the built-in policy"},
		{"good", Options{Allow: []string{"make test # make test; e.g. make test V=1"}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Root = root
			_, err := New(tc.opts)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestNewNeedsAbsoluteRoot(t *testing.T) {
	t.Parallel()
	if _, err := New(Options{Root: "rel"}); err == nil {
		t.Fatal("a relative root was accepted")
	}
}
