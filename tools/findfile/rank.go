package findfile

import (
	"context"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Match is one ranked path with its 0–100 score.
type Match struct {
	Path  string
	Score int
	raw   int
}

// Rank scores every path against query (whitespace-separated terms must
// all match) and returns those scoring at least threshold, best first, at
// most limit. Ties go to the higher raw score (file-name matches weigh
// more), then the shorter path. A query with capitals first requires them
// to meet capitals (smart case); when nothing reaches the threshold it is
// retried ignoring case, then, for a single term, allowing one typo.
func Rank(ctx context.Context, paths []string, query string, threshold, limit int) []Match {
	cands := make([]candidate, len(paths))
	for i, p := range paths {
		cands[i] = newCandidate(p)
	}
	return rankCandidates(ctx, cands, query, threshold, limit)
}

func rankCandidates(ctx context.Context, cands []candidate, query string, threshold, limit int) []Match {
	terms := strings.Fields(query)
	if len(terms) == 0 || limit <= 0 {
		return nil
	}
	smart := lowerASCII(query) != query
	out := scoreAll(ctx, cands, [][]string{terms}, threshold, 100, "", smart)
	if len(out) == 0 && smart {
		out = scoreAll(ctx, cands, [][]string{terms}, threshold, 100, "", false)
	}
	if len(out) == 0 && len(terms) == 1 && len(terms[0]) >= 4 {
		out = scoreAll(ctx, cands, typoVariants(terms[0]), threshold, typoPenalty, lowerASCII(terms[0]), false)
		for i := range out {
			out[i].raw = out[i].raw * typoPenalty / 100
		}
	}
	sort.Slice(out, func(i, j int) bool { return better(out[i], out[j]) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

func better(a, b Match) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if a.raw != b.raw {
		return a.raw > b.raw
	}
	if len(a.Path) != len(b.Path) {
		return len(a.Path) < len(b.Path)
	}
	return a.Path < b.Path
}

// typoVariants are the term with one character left out: a match of one
// of them is a match of the term with one typo (an extra, a wrong or a
// swapped character).
func typoVariants(term string) [][]string {
	var vs [][]string
	seen := map[string]bool{}
	for i := range len(term) {
		v := term[:i] + term[i+1:]
		if !seen[v] {
			seen[v] = true
			vs = append(vs, []string{v})
		}
	}
	return vs
}

// scoreAll scores cands in parallel. Each query in queries is a list of
// terms that must all match; a path keeps its best query's score, scaled
// by percent and normalised against the first query's ideal.
//
// typoOf, when set, is the lower-cased term the queries are typo variants
// of: a path that does not hold it with at most one character missing is
// skipped before any variant is scored.
func scoreAll(ctx context.Context, cands []candidate, queries [][]string, threshold, percent int, typoOf string, smart bool) []Match {
	workers := runtime.GOMAXPROCS(0)
	chunk := (len(cands) + workers - 1) / workers
	if chunk == 0 {
		return nil
	}
	var mu sync.Mutex
	var out []Match
	var wg sync.WaitGroup
	for lo := 0; lo < len(cands); lo += chunk {
		part := cands[lo:min(lo+chunk, len(cands))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := scorePart(ctx, part, queries, threshold, percent, typoOf, smart)
			mu.Lock()
			out = append(out, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

func scorePart(ctx context.Context, part []candidate, queries [][]string, threshold, percent int, typoOf string, smart bool) []Match {
	scorers := make([][]*scorer, len(queries))
	ideal := 0
	for qi, terms := range queries {
		for _, t := range terms {
			scorers[qi] = append(scorers[qi], newScorer(t, smart))
		}
	}
	for _, s := range scorers[0] {
		ideal += s.ideal
	}
	if len(queries) > 1 {
		// Typo variants are one character shorter: measure them against the
		// ideal of the term they stand for.
		ideal = ideal * (len(scorers[0][0].pat) + 1) / max(1, len(scorers[0][0].pat))
	}
	var out []Match
	for i := range part {
		if i&1023 == 0 && ctx.Err() != nil {
			return out
		}
		if typoOf != "" && !withOneMissing(typoOf, part[i].lower) {
			continue
		}
		best := -1
		for _, ss := range scorers {
			total := 0
			ok := true
			for _, s := range ss {
				raw, m := s.score(part[i])
				if !m {
					ok = false
					break
				}
				total += raw
			}
			if ok && total > best {
				best = total
			}
		}
		if best < 0 {
			continue
		}
		norm := max(0, min(100, best*100/ideal)) * percent / 100
		if norm >= threshold {
			out = append(out, Match{Path: part[i].path, Score: norm, raw: best})
		}
	}
	return out
}

// withOneMissing reports whether pat, with at most one character left
// out, is a subsequence of text: the longest prefix matched from the
// front and the longest suffix matched from the back must meet.
func withOneMissing(pat, text string) bool {
	n := len(pat)
	fwd := make([]int, n+1) // fwd[i]: end in text of the greedy match of pat[:i], or -1
	j := 0
	for i := 0; i < n; i++ {
		if fwd[i] < 0 {
			fwd[i+1] = -1
			continue
		}
		k := strings.IndexByte(text[j:], pat[i])
		if k < 0 {
			fwd[i+1] = -1
			continue
		}
		j += k + 1
		fwd[i+1] = j
	}
	bwd := make([]int, n+2) // bwd[i]: start in text of the greedy match of pat[i:] from the back, or -1
	bwd[n] = len(text)
	j = len(text)
	for i := n - 1; i >= 0; i-- {
		if bwd[i+1] < 0 {
			bwd[i] = -1
			continue
		}
		k := strings.LastIndexByte(text[:j], pat[i])
		bwd[i] = k
		j = max(k, 0)
	}
	for i := 0; i < n; i++ { // leave out pat[i]
		if fwd[i] >= 0 && bwd[i+1] >= 0 && fwd[i] <= bwd[i+1] {
			return true
		}
	}
	return false
}
