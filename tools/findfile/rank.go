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
	return rankCandidates(ctx, prepare(paths), query, threshold, limit)
}

// prepare lower-cases every path into one shared string: one allocation
// instead of one per path keeps a 100k-path ranking out of the GC's way.
func prepare(paths []string) []candidate {
	total := 0
	for _, p := range paths {
		total += len(p)
	}
	buf := make([]byte, 0, total)
	for _, p := range paths {
		for i := 0; i < len(p); i++ {
			c := p[i]
			if isUpper(c) {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
		}
	}
	all := string(buf)
	cands := make([]candidate, len(paths))
	off := 0
	for i, p := range paths {
		cands[i] = candidate{path: p, lower: all[off : off+len(p)], base: strings.LastIndexByte(p, '/') + 1}
		off += len(p)
	}
	return cands
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
	if len(out) == 0 && len(terms) == 1 && len(terms[0]) >= 4 && len(terms[0]) <= maxTypoTerm {
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

// maxTypoTerm is the longest term retried with a typo: one bit per
// position in a uint64 mask.
const maxTypoTerm = 64

// typoVariants are the term with one character left out, variant i
// without character i: a match of one of them is a match of the term with
// one typo (an extra, a wrong or a swapped character).
func typoVariants(term string) [][]string {
	vs := make([][]string, len(term))
	for i := range len(term) {
		vs[i] = []string{term[:i] + term[i+1:]}
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
	var scratch []int
	for i := range part {
		if i&1023 == 0 && ctx.Err() != nil {
			return out
		}
		mask := ^uint64(0)
		if typoOf != "" {
			// Only the variants that are subsequences of the path can match.
			if mask = missingOneMask(typoOf, part[i].lower, &scratch); mask == 0 {
				continue
			}
		}
		best := -1
		for qi, ss := range scorers {
			if mask&(1<<uint(qi)) == 0 {
				continue
			}
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

// missingOneMask returns a bit for each i such that pat without pat[i] is
// a subsequence of text: the greedy match of pat[:i] from the front must
// end before the greedy match of pat[i+1:] from the back begins. scratch
// is reused between calls.
func missingOneMask(pat, text string, scratch *[]int) uint64 {
	n := len(pat)
	if cap(*scratch) < 2*n+2 {
		*scratch = make([]int, 2*n+2)
	}
	fwd := (*scratch)[:n+1]        // fwd[i]: end of the match of pat[:i], or -1
	bwd := (*scratch)[n+1 : 2*n+2] // bwd[i]: start of the match of pat[i:], or -1
	fwd[0] = 0
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
	var mask uint64
	for i := 0; i < n && i < 64; i++ { // leave out pat[i]
		if fwd[i] >= 0 && bwd[i+1] >= 0 && fwd[i] <= bwd[i+1] {
			mask |= 1 << uint(i)
		}
	}
	return mask
}
