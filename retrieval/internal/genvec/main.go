// Command genvec writes retrieval's word vectors (wordvec.bin): a
// distributional model of English words learnt, without supervision, from
// the glosses of Princeton WordNet 3.0.
//
// Rerun it after installing Debian's wordnet-base package:
//
//	apt-get install -y wordnet-base
//	cd retrieval && go generate   # runs: go run ./internal/genvec -dict /usr/share/wordnet -o wordvec.bin
//
// The corpus has one short text per synset: its words, its gloss
// (definition and examples) and the words of the synsets it points to by
// a fixed set of relations (hypernyms, derivations, similar adjectives,
// topic domains, attributes, see-also, pertainyms). Words are analysed
// like retrieval's index terms (split, stop words dropped, Porter
// stemmed). Two terms co-occur when they share a text. The vectors are the
// usual count-based recipe of Levy, Goldberg and Dagan ("Improving
// distributional similarity with lessons learned from word embeddings",
// TACL 2015), with their recommended settings: positive PMI with context
// distribution smoothing 0.75, a truncated SVD, and the singular values
// weighted by the power 0.5. Nothing but WordNet goes in: no labelled
// queries and no tool lists.
//
// Output: a line "wordvec1 V D", V lines "term count" (count is the number
// of texts that hold the term), then V×D signed bytes, one vector per term
// scaled so its largest component is ±127. It is not compressed: the
// quantised vectors hardly compress, and retrieval reads the file without
// inflating it first.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/reach-agent/reach/retrieval/internal/analysis"
)

// minCount is the fewest texts a term must appear in to get a vector: rarer
// terms have too few contexts for a stable one.
const minCount = 5

// follow reports whether a WordNet pointer symbol leads to a synset whose
// words join a synset's text.
func follow(sym string) bool {
	switch sym {
	case "@", "@i", "+", "&", ";c", "=", "^", `\`:
		return true
	}
	return false
}

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "WordNet dict directory")
	out := flag.String("o", "wordvec.bin", "output file")
	dim := flag.Int("dim", 128, "vector dimensions")
	flag.Parse()
	if err := run(*dict, *out, *dim); err != nil {
		fmt.Fprintln(os.Stderr, "genvec:", err)
		os.Exit(1)
	}
}

type pointer struct {
	file   byte // n, v, a, r
	offset int64
}

type synsetRec struct {
	words []string
	gloss string
	ptrs  []pointer
}

func run(dict, out string, dim int) error {
	syns := map[pointer]*synsetRec{}
	for _, f := range []struct {
		name string
		file byte
	}{{"noun", 'n'}, {"verb", 'v'}, {"adj", 'a'}, {"adv", 'r'}} {
		if err := readData(filepath.Join(dict, "data."+f.name), f.file, syns); err != nil {
			return err
		}
	}
	texts := corpus(syns)
	fmt.Fprintf(os.Stderr, "genvec: %d texts\n", len(texts))
	vocab, counts, ids := vocabulary(texts)
	fmt.Fprintf(os.Stderr, "genvec: %d terms in at least %d texts\n", len(vocab), minCount)
	m := ppmi(texts, ids, len(vocab))
	fmt.Fprintf(os.Stderr, "genvec: %d non-zero PPMI cells\n", m.nnz())
	vecs := svd(m, dim)
	return write(out, vocab, counts, vecs, dim)
}

// readData reads a WordNet data file: "offset lex_filenum ss_type w_cnt
// word lex_id ... p_cnt {ptr_symbol offset pos source/target}... | gloss".
func readData(path string, file byte, syns map[pointer]*synsetRec) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	for n, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == ' ' {
			continue // licence header
		}
		head, gloss, _ := strings.Cut(line, " | ")
		fs := strings.Fields(head)
		bad := fmt.Errorf("%s:%d: malformed synset", path, n+1)
		if len(fs) < 4 {
			return bad
		}
		off, err := strconv.ParseInt(fs[0], 10, 64)
		if err != nil {
			return bad
		}
		wcnt, err := strconv.ParseInt(fs[3], 16, 32)
		if err != nil || len(fs) < 4+2*int(wcnt)+1 {
			return bad
		}
		rec := &synsetRec{gloss: gloss}
		for i := range int(wcnt) {
			w := fs[4+2*i]
			if j := strings.IndexByte(w, '('); j >= 0 {
				w = w[:j] // adjective markers: (a), (p), (ip)
			}
			rec.words = append(rec.words, strings.ReplaceAll(w, "_", " "))
		}
		rest := fs[4+2*wcnt:]
		pcnt, err := strconv.Atoi(rest[0])
		if err != nil || len(rest) < 1+4*pcnt {
			return bad
		}
		for i := range pcnt {
			p := rest[1+4*i : 5+4*i]
			if !follow(p[0]) {
				continue
			}
			o, err := strconv.ParseInt(p[1], 10, 64)
			if err != nil || len(p[2]) != 1 {
				return bad
			}
			f := p[2][0]
			if f == 's' {
				f = 'a' // satellite adjectives live in data.adj
			}
			rec.ptrs = append(rec.ptrs, pointer{f, o})
		}
		syns[pointer{file, off}] = rec
	}
	return nil
}

// corpus makes one text per synset: the distinct terms of its words, its
// gloss and the words of the synsets it points to. Synsets are visited in
// a fixed order so the output is reproducible.
func corpus(syns map[pointer]*synsetRec) [][]string {
	keys := make([]pointer, 0, len(syns))
	for k := range syns {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].file != keys[j].file {
			return keys[i].file < keys[j].file
		}
		return keys[i].offset < keys[j].offset
	})
	stop := analysis.StopWords()
	texts := make([][]string, 0, len(keys))
	for _, k := range keys {
		s := syns[k]
		var b strings.Builder
		b.WriteString(strings.Join(s.words, " "))
		b.WriteString(" ")
		b.WriteString(s.gloss)
		for _, p := range s.ptrs {
			if t, ok := syns[p]; ok {
				b.WriteString(" ")
				b.WriteString(strings.Join(t.words, " "))
			}
		}
		seen := map[string]bool{}
		var terms []string
		for _, t := range analysis.Terms(b.String(), stop) {
			if !seen[t] && !analysis.IsDigits(t) {
				seen[t] = true
				terms = append(terms, t)
			}
		}
		if len(terms) > 1 {
			texts = append(texts, terms)
		}
	}
	return texts
}

// vocabulary keeps the terms found in at least minCount texts, sorted.
func vocabulary(texts [][]string) ([]string, []int, map[string]int) {
	df := map[string]int{}
	for _, t := range texts {
		for _, w := range t {
			df[w]++
		}
	}
	var vocab []string
	for w, n := range df {
		if n >= minCount {
			vocab = append(vocab, w)
		}
	}
	sort.Strings(vocab)
	ids := make(map[string]int, len(vocab))
	counts := make([]int, len(vocab))
	for i, w := range vocab {
		ids[w] = i
		counts[i] = df[w]
	}
	return vocab, counts, ids
}

// csr is a sparse matrix in compressed sparse row form.
type csr struct {
	n      int
	rowPtr []int
	col    []int32
	val    []float64
}

func (m *csr) nnz() int { return len(m.val) }

// ppmi counts co-occurrences within texts and returns the positive PMI
// matrix, with the context distribution raised to the power 0.75.
func ppmi(texts [][]string, ids map[string]int, n int) *csr {
	rows := make([]map[int32]float64, n)
	for i := range rows {
		rows[i] = map[int32]float64{}
	}
	for _, t := range texts {
		var in []int32
		for _, w := range t {
			if id, ok := ids[w]; ok {
				in = append(in, int32(id))
			}
		}
		for _, a := range in {
			for _, b := range in {
				if a != b {
					rows[a][b]++
				}
			}
		}
	}
	// Sums run in a fixed order so that reruns write the same bytes.
	sorted := make([][]int32, n)
	for i, r := range rows {
		cols := make([]int32, 0, len(r))
		for j := range r {
			cols = append(cols, j)
		}
		sort.Slice(cols, func(a, b int) bool { return cols[a] < cols[b] })
		sorted[i] = cols
	}
	rowSum := make([]float64, n)
	ctx := make([]float64, n)
	var total, ctxTotal float64
	for i, r := range rows {
		for _, j := range sorted[i] {
			c := r[j]
			rowSum[i] += c
			ctx[j] += c
			total += c
		}
	}
	for j := range ctx {
		ctx[j] = math.Pow(ctx[j], 0.75)
		ctxTotal += ctx[j]
	}
	m := &csr{n: n, rowPtr: make([]int, n+1)}
	for i, r := range rows {
		for _, j := range sorted[i] {
			pmi := math.Log((r[j] / total) / ((rowSum[i] / total) * (ctx[j] / ctxTotal)))
			if pmi > 0 {
				m.col = append(m.col, j)
				m.val = append(m.val, pmi)
			}
		}
		m.rowPtr[i+1] = len(m.val)
	}
	return m
}

func write(path string, vocab []string, counts []int, vecs [][]float64, dim int) error {
	var raw bytes.Buffer
	fmt.Fprintf(&raw, "wordvec1 %d %d\n", len(vocab), dim)
	for i, w := range vocab {
		fmt.Fprintf(&raw, "%s %d\n", w, counts[i])
	}
	buf := make([]byte, dim)
	for _, v := range vecs {
		top := 0.0
		for _, x := range v {
			top = math.Max(top, math.Abs(x))
		}
		for k, x := range v {
			q := 0.0
			if top > 0 {
				q = math.Round(x / top * 127)
			}
			buf[k] = byte(int8(q))
		}
		raw.Write(buf)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, raw.Bytes(), 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
