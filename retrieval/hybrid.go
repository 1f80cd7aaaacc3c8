package retrieval

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// DefaultAlpha is the share of the embedding similarity in a hybrid score.
const DefaultAlpha = 0.5

// Hybrid ranks documents by BM25F, blended with the cosine similarity of
// embeddings when it has an Embedder: (1−α)·bm25/max(bm25) + α·max(0, cos).
// Without one the scores are BM25F scaled to [0, 1]. Safe for concurrent
// searches.
type Hybrid struct {
	ix    *Index
	emb   Embedder
	vecs  [][]float32
	alpha float64
}

// DocText is the text embedded for a document: its name in words, its
// summary and its parameters.
func DocText(d Doc) string {
	var b strings.Builder
	b.WriteString(strings.Join(splitIdentifier(d.Name), " "))
	b.WriteString(": ")
	b.WriteString(d.Summary)
	if len(d.Params) > 0 {
		b.WriteString(" Parameters: ")
		b.WriteString(strings.Join(d.Params, ", "))
	}
	return b.String()
}

// NewHybrid indexes docs and, when emb is not nil, embeds them. When the
// embedding fails the ranker still works on BM25F alone and the error
// says why; alpha ≤ 0 means DefaultAlpha.
func NewHybrid(ctx context.Context, docs []Doc, w Weights, emb Embedder, alpha float64) (*Hybrid, error) {
	if alpha <= 0 {
		alpha = DefaultAlpha
	}
	h := &Hybrid{ix: NewIndex(docs, w), alpha: math.Min(alpha, 1)}
	if emb == nil || len(docs) == 0 {
		return h, nil
	}
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = DocText(d)
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return h, fmt.Errorf("embed %d tool descriptions: %w (ranking by words only)", len(docs), err)
	}
	h.emb, h.vecs = emb, vecs
	return h, nil
}

// Index is the BM25F index underneath.
func (h *Hybrid) Index() *Index { return h.ix }

// Embedded reports whether the scores include embedding similarity.
func (h *Hybrid) Embedded() bool { return h.vecs != nil }

// Scores returns the score of every document for query. When the query
// cannot be embedded the scores are BM25F alone and the error says why.
func (h *Hybrid) Scores(ctx context.Context, query string) ([]float64, error) {
	scores := h.ix.Scores(query)
	top := 0.0
	for _, s := range scores {
		top = math.Max(top, s)
	}
	if top > 0 {
		for i := range scores {
			scores[i] /= top
		}
	}
	if h.vecs == nil {
		return scores, nil
	}
	qv, err := h.emb.Embed(ctx, []string{query})
	if err != nil || len(qv) != 1 {
		if err == nil {
			err = fmt.Errorf("no vector for the query")
		}
		return scores, fmt.Errorf("embed the query: %w (ranking by words only)", err)
	}
	for i, v := range h.vecs {
		scores[i] = (1-h.alpha)*scores[i] + h.alpha*math.Max(0, cosine(qv[0], v))
	}
	return scores, nil
}
