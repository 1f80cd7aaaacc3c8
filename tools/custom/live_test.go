package custom

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/reach-agent/reach/tools"
)

func TestCustomToolStreamsStderr(t *testing.T) {
	t.Parallel()
	m, err := Load(write(t, "tools.json", `{"tools":[
 {"name":"deploy","summary":"Deploys.","command":"echo 'step 1' >&2; sleep 0.3; echo 'step 2' >&2; echo '{\"success\":true,\"can_retry\":false,\"return_code\":0,\"output\":\"deployed\"}'"}
]}`))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := m.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := reg.Register(ts...); err != nil {
		t.Fatal(err)
	}
	ex := &tools.Executor{Registry: reg}
	call := tools.Call{Name: "deploy", Arguments: `{}`}
	tests := []struct {
		name  string
		watch bool
		want  []string
	}{
		{"watched: stderr comes live, stdout stays the answer", true, []string{"step 1\n", "step 2\n"}},
		{"unwatched", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var got []string
			ctx := context.Background()
			if tt.watch {
				ctx = tools.WithProgress(ctx, func(s string) { mu.Lock(); got = append(got, s); mu.Unlock() })
			}
			res := ex.Execute(ctx, call, []string{"deploy"})
			if !res.Success || res.Output != "deployed" {
				t.Fatalf("result %+v", res)
			}
			mu.Lock()
			defer mu.Unlock()
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("live %q, want %q", got, tt.want)
			}
		})
	}
}
