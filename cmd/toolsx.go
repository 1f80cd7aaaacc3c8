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
		Short: "Rank the registered tools for a task, with their BM25 scores",
		Args:  cobra.ExactArgs(1),
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
			hits := retrieval.NewIndex(docs, retrieval.Weights{}).Search(args[0], k)
			if len(hits) == 0 {
				fmt.Fprintln(f.IO.ErrOut, "no tool matches; try other words")
				return nil
			}
			w := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "RANK\tSCORE\tNAME\tBACKEND")
			for i, h := range hits {
				fmt.Fprintf(w, "%d\t%.3f\t%s\t%s\n", i+1, h.Score, h.Name, specs[h.Doc].Backend)
			}
			return w.Flush()
		},
	}
	c.Flags().IntVarP(&k, "limit", "k", 10, "how many tools to show")
	return c
}

// newToolsEvalCmd is `reach tools eval FILE.csv --tools FILE.json`.
func newToolsEvalCmd(f *Factory) *cobra.Command {
	var toolsFile string
	c := &cobra.Command{
		Use:   "eval QUERIES.csv --tools TOOLS.json",
		Short: "Measure tool retrieval: R@1, R@5, R@10 and MRR over labelled query,tool pairs",
		Long: `Measure tool retrieval on labelled data without any network model.

QUERIES.csv has query,tool rows (a header row is skipped). TOOLS.json is either an object
of name → description (the MetaTool format) or an array of {name, summary, parameters}.`,
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
			ix := retrieval.NewIndex(docs, retrieval.Weights{})
			m := retrieval.Evaluate(names, ix.Scores, qs)
			per := time.Since(start) / time.Duration(max(1, m.N+m.Unknown))
			fmt.Fprintf(f.IO.Out, "tools=%d %s per-query=%s\n", len(docs), m, per.Round(time.Microsecond))
			if m.Unknown > 0 {
				fmt.Fprintf(f.IO.ErrOut, "%d queries name a tool missing from %s and were left out\n", m.Unknown, toolsFile)
			}
			return nil
		},
	}
	c.Flags().StringVar(&toolsFile, "tools", "", "tool descriptions (JSON)")
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
