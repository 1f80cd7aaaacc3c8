package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// DefaultRepeatWindow is how long a write call's result answers the same
// call again (Guard.RepeatWindow when 0).
const DefaultRepeatWindow = 10 * time.Second

// lastWrite is the most recent successful write call of a session.
type lastWrite struct {
	key string
	at  time.Time
	res Result
}

// repeatKey identifies a call by tool and normalised arguments: the same
// JSON value however it is spaced or its keys ordered.
func repeatKey(name string, args json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return name + "\x00" + string(args)
	}
	norm, err := json.Marshal(v) // object keys come out sorted
	if err != nil {
		return name + "\x00" + string(args)
	}
	return name + "\x00" + string(norm)
}

func (g *Guard) repeatWindow() time.Duration {
	if g.RepeatWindow != 0 {
		return g.RepeatWindow
	}
	return DefaultRepeatWindow
}

// repeated returns the first result when a write call repeats the last
// successful write call within the window, so that a model that sends a
// call twice does not write twice. Only the very last state-changing call
// counts: once anything else may have changed the state (another write,
// a command), repeating the first write is a real write again.
func (g *Guard) repeated(spec Spec, args json.RawMessage) (Result, bool) {
	if spec.SideEffect != Write || g.repeatWindow() < 0 {
		return Result{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	last := g.last
	if last == nil || last.key != repeatKey(spec.Name, args) {
		return Result{}, false
	}
	ago := g.now().Sub(last.at)
	if ago > g.repeatWindow() {
		return Result{}, false
	}
	res := last.res
	res.Output += fmt.Sprintf("\n(the same %s call already ran %s ago; this is its result and nothing was written again)", spec.Name, ago.Round(time.Second))
	return res, true
}

// remember keeps a successful write call as the last one; any other call
// that may change state forgets it.
func (g *Guard) remember(spec Spec, args json.RawMessage, res Result) {
	if spec.SideEffect == Read {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if spec.SideEffect == Write && res.Success && g.repeatWindow() >= 0 {
		g.last = &lastWrite{key: repeatKey(spec.Name, args), at: g.now(), res: res}
		return
	}
	g.last = nil
}
