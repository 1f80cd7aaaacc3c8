package cmd

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/reach-agent/reach/app"
	"github.com/reach-agent/reach/config"
	"github.com/reach-agent/reach/retrieval"
)

// newToolsSearchCmd is `reach tools search "query"`: the retrieval ranking
// over every registered tool (built-in, MCP, custom) with scores.
func newToolsSearchCmd(f *Factory, g *global) *cobra.Command {
	var k int
	c := &cobra.Command{
		Use:   "search \"QUERY\"",
		Short: "Rank the registered tools for a task, with their scores",
		Long: `Rank every registered tool (built-in, MCP, custom) for a task as retrieval does: MATCH is
the BM25 score scaled to [0, 1] (blended with embedding similarity when REACH_EMBEDDING_MODEL
is set), PENALTY the quality penalty from earlier runs, SCORE their product.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, dir, err := g.load(f)
			if err != nil {
				return err
			}
			specs, closeFn, err := app.AllToolSpecs(cmd.Context(), f.IO, cfg, dir)
			if err != nil {
				return err
			}
			defer closeFn()
			docs := make([]retrieval.Doc, len(specs))
			for i, s := range specs {
				docs[i] = retrieval.SpecDoc(s.Name, s.Summary, s.Parameters)
			}
			var emb retrieval.Embedder
			if e := app.Embedder(cfg, cfg.EmbeddingModel); e != nil {
				emb = e
			}
			ctx := cmd.Context()
			h, err := retrieval.NewHybrid(ctx, docs, retrieval.Weights{}, emb, 0)
			if err != nil {
				fmt.Fprintln(f.IO.ErrOut, "reach:", err)
			}
			scores, err := h.Scores(ctx, args[0])
			if err != nil {
				fmt.Fprintln(f.IO.ErrOut, "reach:", err)
			}
			penalty := app.ToolPenalty(cfg)
			raw := append([]float64(nil), scores...)
			for i := range scores {
				scores[i] *= penalty(specs[i])
			}
			names := make([]string, len(specs))
			for i, s := range specs {
				names[i] = s.Name
			}
			hits := retrieval.TopK(scores, names, k)
			if len(hits) == 0 {
				fmt.Fprintln(f.IO.ErrOut, "no tool matches; try other words")
				return nil
			}
			w := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "RANK\tSCORE\tMATCH\tPENALTY\tNAME\tBACKEND")
			for i, h := range hits {
				fmt.Fprintf(w, "%d\t%.3f\t%.3f\t%.2f\t%s\t%s\n", i+1, h.Score, raw[h.Doc], penalty(specs[h.Doc]), h.Name, specs[h.Doc].Backend)
			}
			return w.Flush()
		},
	}
	c.Flags().IntVarP(&k, "limit", "k", 10, "how many tools to show")
	return c
}

// newToolsEvalCmd is `reach tools eval FILE.csv --tools FILE.json`.
func newToolsEvalCmd(f *Factory, g *global) *cobra.Command {
	var toolsFile, embedModel string
	var alpha float64
	c := &cobra.Command{
		Use:   "eval QUERIES.csv --tools TOOLS.json",
		Short: "Measure tool retrieval: R@1, R@5, R@10 and MRR over labelled query,tool pairs",
		Long: `Measure tool retrieval on labelled data, by default without any network model.

QUERIES.csv has query,tool rows (a header row is skipped). TOOLS.json is either an object
of name → description (the MetaTool format) or an array of {name, summary, parameters}.

With --embedding-model the ranking blends in embedding similarity from the configured
endpoint's /embeddings (cached under the project state dir, so a rerun costs nothing).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if toolsFile == "" {
				return usageErr("give the tool descriptions with --tools FILE.json")
			}
			docs, err := retrieval.LoadDocs(abs(f, toolsFile))
			if err != nil {
				return err
			}
			qs, err := retrieval.LoadQueries(abs(f, args[0]))
			if err != nil {
				return err
			}
			names := make([]string, len(docs))
			for i, d := range docs {
				names[i] = d.Name
			}
			start := time.Now()
			rank := retrieval.NewIndex(docs, retrieval.Weights{}).Scores
			if embedModel != "" {
				cfg, _, err := g.load(f)
				if err != nil {
					return err
				}
				ctx := cmd.Context()
				emb := app.Embedder(cfg, embedModel)
				h, err := retrieval.NewHybrid(ctx, docs, retrieval.Weights{}, emb, alpha)
				if err != nil {
					return err
				}
				// Embed every query in batches first: the cache is then
				// written a few times, not once per query.
				texts := make([]string, len(qs))
				for i, q := range qs {
					texts[i] = q.Query
				}
				if _, err := emb.Embed(ctx, texts); err != nil {
					return err
				}
				var failed int
				rank = func(q string) []float64 {
					s, err := h.Scores(ctx, q)
					if err != nil {
						failed++
					}
					return s
				}
				defer func() {
					if failed > 0 {
						fmt.Fprintf(f.IO.ErrOut, "%d queries could not be embedded and were ranked by words only\n", failed)
					}
				}()
			}
			m := retrieval.Evaluate(names, rank, qs)
			per := time.Since(start) / time.Duration(max(1, m.N+m.Unknown))
			fmt.Fprintf(f.IO.Out, "tools=%d %s per-query=%s\n", len(docs), m, per.Round(time.Microsecond))
			if m.Unknown > 0 {
				fmt.Fprintf(f.IO.ErrOut, "%d queries name a tool missing from %s and were left out\n", m.Unknown, toolsFile)
			}
			return nil
		},
	}
	c.Flags().StringVar(&toolsFile, "tools", "", "tool descriptions (JSON)")
	c.Flags().StringVar(&embedModel, "embedding-model", "", "blend in embeddings of this model from the configured endpoint")
	c.Flags().Float64Var(&alpha, "alpha", retrieval.DefaultAlpha, "share of the embedding similarity in the score (0..1)")
	return c
}

func abs(f *Factory, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if wd, err := f.Getwd(); err == nil {
		return filepath.Join(wd, p)
	}
	return p
}

func usageErr(msg string) error {
	return &config.UsageError{Msg: strings.TrimSpace(msg)}
}

// newToolsStatsCmd is `reach tools stats`.
func newToolsStatsCmd(f *Factory, g *global) *cobra.Command {
	return &cobra.Command{
		Use:   "stats",
		Short: "Tool quality records: calls, success rate, p50/p95 duration, ranking penalty",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := g.load(f)
			if err != nil {
				return err
			}
			return app.ToolStats(f.IO, cfg)
		},
	}
}
