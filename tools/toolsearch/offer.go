// Package toolsearch narrows the tools offered to the model when a phase
// has more than it can take (SPEC §4.2): built-ins always, the rest ranked
// for the task, plus the tool_search tool that pulls in more on demand.
package toolsearch

import (
	"context"
	"crypto/sha256"
	"sort"
	"strings"
	"sync"

	"github.com/reach-agent/reach/agent"
	"github.com/reach-agent/reach/llm"
	"github.com/reach-agent/reach/retrieval"
	"github.com/reach-agent/reach/tools"
)

// DefaultMaxTools is SPEC §4.2's max_tools: above it, retrieval runs.
const DefaultMaxTools = 30

// Options configure an Offer. The zero value ranks by BM25 alone.
type Options struct {
	// MaxTools is the most tools a phase offers before retrieval holds
	// some back (DefaultMaxTools when 0).
	MaxTools int
	// Embedder, when set, blends embedding similarity into the ranking.
	Embedder retrieval.Embedder
	// Penalty is the quality multiplier of a tool (1 when nil).
	Penalty func(tools.Spec) float64
	// Allowed is the scope filter, applied before the top-K cut; nil
	// allows every tool.
	Allowed func(phase string, s tools.Spec) bool
	// Task is the run's task, always part of the ranking query.
	Task string
	// Report is told once about a ranking problem (embedding failures);
	// nil discards.
	Report func(error)
}

// Candidate is a ranked tool with its score.
type Candidate struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// LastUsedBoost is added to the score of a tool used in the last turn
// (scores are in [0, 1] before the boost).
const LastUsedBoost = 0.5

// Offer implements agent.ToolOffer. Within one conversation (a phase's
// history, keyed by its first user message) the offered list only grows:
// the core (built-ins and tool_search) first, then the ranked tools, then
// the ones found later, so the prompt's tool prefix stays cacheable. Safe
// for concurrent use.
type Offer struct {
	opts Options

	mu       sync.Mutex
	rankers  map[[32]byte]*ranker
	convs    map[string]*conversation
	cur      *conversation // of the latest turn; nil when nothing was held back
	phase    string        // of the latest turn
	offered  int           // how many tools the latest turn offered
	lastUsed []string      // tools called in the latest turn with calls
	reported bool

	// The first pass over very many MCP servers (servers.go).
	picker interface {
		Pick(ctx context.Context, task string, servers []Server) ([]string, error)
	}
	pickAt int
	picked bool
	chosen map[string]bool // nil: every server
}

// conversation is the stable offer of one history.
type conversation struct {
	phase   string
	core    []tools.Spec
	pool    []tools.Spec // the tools retrieval ranks
	rank    *ranker
	extra   []string // offered pool tools, in offer order
	scores  map[string]float64
	pending []string // found by tool_search, offered from the next turn
	// servers the first pass chose; nil ranks every server's tools into
	// the offer (tool_search always searches them all).
	servers map[string]bool
}

// New returns an Offer with opts.
func New(opts Options) *Offer {
	if opts.MaxTools <= 0 {
		opts.MaxTools = DefaultMaxTools
	}
	return &Offer{opts: opts, rankers: map[[32]byte]*ranker{}, convs: map[string]*conversation{}}
}

var _ agent.ToolOffer = (*Offer)(nil)

// Offer implements agent.ToolOffer.
func (o *Offer) Offer(ctx context.Context, t agent.OfferTurn) []tools.Spec {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.phase = t.Phase
	if len(t.LastUsed) > 0 {
		o.lastUsed = append([]string(nil), t.LastUsed...)
	}
	if len(t.Tools) <= o.opts.MaxTools {
		o.cur, o.offered = nil, len(t.Tools)
		return t.Tools
	}
	key := t.Phase + "\x00" + firstUser(t.Messages)
	c, seen := o.convs[key]
	if !seen {
		c = o.start(ctx, t)
		o.convs[key] = c
	} else if t.Turn == 1 {
		// The same history goes on (a test-fix round, the next chat
		// message): rank for the new message, keep what is offered.
		o.addRanked(ctx, c, lastUser(t.Messages), max(3, o.k(c)/4))
	}
	for _, n := range c.pending {
		c.add(n, c.scores[n])
	}
	c.pending = nil
	o.cur = c
	out := c.offered()
	o.offered = len(out)
	return out
}

// start splits the phase's tools into the core and the pool and offers
// the best ranked of the pool.
func (o *Offer) start(ctx context.Context, t agent.OfferTurn) *conversation {
	c := &conversation{phase: t.Phase, scores: map[string]float64{}}
	for _, s := range t.Tools {
		if Core(s) {
			c.core = append(c.core, s)
		} else {
			c.pool = append(c.pool, s)
		}
	}
	c.core = append(c.core, Spec())
	c.rank = o.ranker(ctx, c.pool)
	c.servers = o.pickServers(ctx, o.opts.Task+"\n"+lastUser(t.Messages), c.pool)
	o.addRanked(ctx, c, o.opts.Task+"\n"+lastUser(t.Messages), o.k(c))
	return c
}

// k is how many pool tools fit beside the core.
func (o *Offer) k(c *conversation) int {
	return max(5, o.opts.MaxTools-len(c.core))
}

// addRanked offers up to n more pool tools, best first.
func (o *Offer) addRanked(ctx context.Context, c *conversation, query string, n int) {
	for _, cand := range o.rankFor(ctx, c, query) {
		if n == 0 {
			break
		}
		if c.servers != nil && !c.fromChosen(cand.Name) {
			continue
		}
		if c.add(cand.Name, cand.Score) {
			n--
		}
	}
}

// rankFor ranks c's pool for query: hybrid score × quality penalty, plus
// the last-used boost, scope-filtered, zero scores left out.
func (o *Offer) rankFor(ctx context.Context, c *conversation, query string) []Candidate {
	scores, err := c.rank.h.Scores(ctx, truncate(query, 4000))
	if err != nil {
		o.report(err)
	}
	used := map[string]bool{}
	for _, n := range o.lastUsed {
		used[n] = true
	}
	var out []Candidate
	for i, s := range c.pool {
		if o.opts.Allowed != nil && !o.opts.Allowed(c.phase, s) {
			continue
		}
		score := scores[i]
		if o.opts.Penalty != nil {
			score *= o.opts.Penalty(s)
		}
		if used[s.Name] {
			score += LastUsedBoost
		}
		if score > 0 {
			out = append(out, Candidate{Name: s.Name, Score: score})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
	return out
}

func (o *Offer) report(err error) {
	if o.reported || o.opts.Report == nil {
		return
	}
	o.reported = true
	o.opts.Report(err)
}

// Turn describes the latest turn, for the audit log.
type Turn struct {
	Phase   string
	Offered int // tools offered
	// Ranked are the tools retrieval picked, with their scores, in offer
	// order; empty when nothing was held back.
	Ranked []Candidate
}

// Current describes the latest turn.
func (o *Offer) Current() Turn {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := Turn{Phase: o.phase, Offered: o.offered}
	if o.cur != nil {
		for _, n := range o.cur.extra {
			t.Ranked = append(t.Ranked, Candidate{Name: n, Score: o.cur.scores[n]})
		}
	}
	return t
}

// Core says whether a tool is always offered: everything but MCP and
// custom tools.
func Core(s tools.Spec) bool {
	return !strings.HasPrefix(s.Backend, "mcp:") && s.Backend != "custom"
}

// fromChosen says whether a pool tool is from a server the first pass
// chose (tools of other backends always are).
func (c *conversation) fromChosen(name string) bool {
	for _, s := range c.pool {
		if s.Name == name {
			sv := serverOf(s)
			return sv == "" || c.servers[sv]
		}
	}
	return false
}

// add offers a pool tool; it reports whether it was new.
func (c *conversation) add(name string, score float64) bool {
	for _, n := range c.extra {
		if n == name {
			return false
		}
	}
	for _, s := range c.pool {
		if s.Name == name {
			c.extra = append(c.extra, name)
			c.scores[name] = score
			return true
		}
	}
	return false
}

func (c *conversation) offered() []tools.Spec {
	out := append([]tools.Spec(nil), c.core...)
	for _, n := range c.extra {
		for _, s := range c.pool {
			if s.Name == n {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// ranker is the index of one pool, shared by the conversations over it.
type ranker struct {
	h *retrieval.Hybrid
}

func (o *Offer) ranker(ctx context.Context, pool []tools.Spec) *ranker {
	h := sha256.New()
	for _, s := range pool {
		h.Write([]byte(s.Name + "\x00" + s.Summary + "\x00"))
		h.Write(s.Parameters)
	}
	var key [32]byte
	copy(key[:], h.Sum(nil))
	if r, ok := o.rankers[key]; ok {
		return r
	}
	docs := make([]retrieval.Doc, len(pool))
	for i, s := range pool {
		docs[i] = retrieval.SpecDoc(s.Name, s.Summary, s.Parameters)
	}
	hy, err := retrieval.NewHybrid(ctx, docs, retrieval.Weights{}, o.opts.Embedder, 0)
	if err != nil {
		o.report(err)
	}
	r := &ranker{h: hy}
	o.rankers[key] = r
	return r
}

func firstUser(msgs []llm.Message) string {
	for _, m := range msgs {
		if m.Role == llm.User {
			return m.Content
		}
	}
	return ""
}

func lastUser(msgs []llm.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.User {
			return msgs[i].Content
		}
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
