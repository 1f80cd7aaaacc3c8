package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/reach-agent/reach/events"
	"github.com/reach-agent/reach/llm"
)

// Meter adds up tokens, cost and requests across every model turn of a run
// and enforces the --max-tokens and --max-cost budgets.
type Meter struct {
	// Price converts a turn's usage into US dollars; nil means free.
	Price func(llm.Usage) float64
	// MaxTokens and MaxCost are budgets; zero means none.
	MaxTokens int
	MaxCost   float64
	// Confirm asks whether to go on past a budget. Nil (or --exit-at-limit)
	// means stop with a LimitError.
	Confirm func(ctx context.Context, question string) (bool, error)
	Sink    events.Sink

	mu           sync.Mutex
	usage        llm.Usage
	cost         float64
	requests     int
	requestBytes int
	waived       bool
}

// Totals is a snapshot of what a run used.
type Totals struct {
	Usage        llm.Usage
	CostUSD      float64
	Requests     int
	RequestBytes int
}

// Add records one turn and returns a LimitError when a budget is exceeded
// and the human (if any) does not want to go on.
func (m *Meter) Add(ctx context.Context, resp llm.Response) error {
	m.mu.Lock()
	m.usage = m.usage.Add(resp.Usage)
	if m.Price != nil {
		m.cost += m.Price(resp.Usage)
	}
	m.requests += resp.Requests
	m.requestBytes += resp.RequestBytes
	t := m.totalsLocked()
	over := ""
	what := ""
	if !m.waived {
		switch {
		case m.MaxTokens > 0 && t.Usage.Total() > m.MaxTokens:
			what = "tokens"
			over = fmt.Sprintf("token budget reached: %d tokens used of --max-tokens %d", t.Usage.Total(), m.MaxTokens)
		case m.MaxCost > 0 && t.CostUSD > m.MaxCost:
			what = "cost"
			over = fmt.Sprintf("cost budget reached: $%.4f spent of --max-cost %.4f", t.CostUSD, m.MaxCost)
		}
	}
	m.mu.Unlock()

	if m.Sink != nil {
		m.Sink.Emit(events.Usage{InputTokens: t.Usage.PromptTokens, OutputTokens: t.Usage.CompletionTokens, CostUSD: t.CostUSD, Requests: t.Requests})
	}
	if over == "" {
		return nil
	}
	if m.Confirm != nil {
		ok, err := m.Confirm(ctx, over+". Continue without the budget?")
		if err == nil && ok {
			m.mu.Lock()
			m.waived = true
			m.mu.Unlock()
			return nil
		}
	}
	return &LimitError{What: what, Msg: over + "; raise the budget or use a cheaper model"}
}

// Totals returns what has been used so far.
func (m *Meter) Totals() Totals {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.totalsLocked()
}

func (m *Meter) totalsLocked() Totals {
	return Totals{Usage: m.usage, CostUSD: m.cost, Requests: m.requests, RequestBytes: m.requestBytes}
}
