// Command gen writes retrieval's WordNet thesaurus table (wordnet.txt.gz)
// from the Princeton WordNet 3.0 database files.
//
// Rerun it after installing Debian's wordnet-base package:
//
//	apt-get install -y wordnet-base
//	cd retrieval && go generate   # runs: go run ./internal/gen -dict /usr/share/wordnet -o wordnet.txt.gz
//
// For every noun, verb and adjective lemma it keeps the first (most
// frequent) sense only, and writes the other words of that synset and of
// its direct hypernym synsets. Only common single words are kept: lower-case
// letters, at least three of them, whose senses are tagged at least
// minTagged times in WordNet's own sense-tagged corpus counts (cntlist.rev).
// The criterion uses nothing but WordNet; no labelled queries or tool lists.
//
// Output, one line per head word, sorted:
//
//	word<TAB>synonym synonym ...<TAB>hypernym hypernym ...
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// minTagged is the a priori frequency floor: a word whose senses were
// tagged fewer times in SemCor is too rare to expand to or from.
const minTagged = 3

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "WordNet dict directory")
	out := flag.String("o", "wordnet.txt.gz", "output file (gzip'd text)")
	flag.Parse()
	if err := run(*dict, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

type entry struct{ syn, hyp map[string]bool }

func run(dict, out string) error {
	freq, err := tagCounts(filepath.Join(dict, "cntlist.rev"))
	if err != nil {
		return err
	}
	common := func(w string) bool { return len(w) >= 3 && letters(w) && freq[w] >= minTagged }
	table := map[string]*entry{}
	for _, pos := range []string{"noun", "verb", "adj"} {
		data, err := os.ReadFile(filepath.Join(dict, "data."+pos))
		if err != nil {
			return fmt.Errorf("read data.%s: %w", pos, err)
		}
		firsts, err := firstSenses(filepath.Join(dict, "index."+pos), common)
		if err != nil {
			return err
		}
		for _, f := range firsts {
			words, hypers, err := synset(data, f.offset)
			if err != nil {
				return fmt.Errorf("%s %s: %w", pos, f.lemma, err)
			}
			e := table[f.lemma]
			if e == nil {
				e = &entry{syn: map[string]bool{}, hyp: map[string]bool{}}
				table[f.lemma] = e
			}
			for _, w := range words {
				if w != f.lemma && common(w) {
					e.syn[w] = true
				}
			}
			for _, h := range hypers {
				hw, _, err := synset(data, h)
				if err != nil {
					return fmt.Errorf("%s %s hypernym: %w", pos, f.lemma, err)
				}
				for _, w := range hw {
					if w != f.lemma && common(w) {
						e.hyp[w] = true
					}
				}
			}
		}
	}
	return write(out, table)
}

// tagCounts sums the tagged-sense counts of each lemma in cntlist.rev
// ("lemma%sense_key sense_number tag_count").
func tagCounts(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	freq := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		lemma, _, _ := strings.Cut(fs[0], "%")
		n, err := strconv.Atoi(fs[2])
		if err != nil {
			return nil, fmt.Errorf("%s: bad count in %q", path, sc.Text())
		}
		freq[lemma] += n
	}
	return freq, sc.Err()
}

type first struct {
	lemma  string
	offset int64
}

// firstSenses reads an index file ("lemma pos synset_cnt p_cnt ptr...
// sense_cnt tagsense_cnt offset...") and returns each kept lemma's first
// synset offset: WordNet orders senses by tagged frequency.
func firstSenses(path string, keep func(string) bool) ([]first, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	var out []first
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			continue // licence header
		}
		fs := strings.Fields(line)
		if len(fs) < 6 || !keep(fs[0]) {
			continue
		}
		pcnt, err := strconv.Atoi(fs[3])
		if err != nil || len(fs) < 4+pcnt+3 {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		off, err := strconv.ParseInt(fs[4+pcnt+2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: bad offset in %q", path, line)
		}
		out = append(out, first{fs[0], off})
	}
	return out, sc.Err()
}

// synset reads the data line at offset ("offset lex_filenum ss_type
// w_cnt word lex_id ... p_cnt ptr...") and returns its words and the
// offsets of its direct hypernyms ("@" pointers within the same file).
func synset(data []byte, offset int64) ([]string, []int64, error) {
	if offset < 0 || offset >= int64(len(data)) {
		return nil, nil, fmt.Errorf("offset %d out of range", offset)
	}
	rest0 := data[offset:]
	if i := bytes.IndexByte(rest0, '\n'); i >= 0 {
		rest0 = rest0[:i]
	}
	line := string(rest0)
	line, _, _ = strings.Cut(line, " | ")
	fs := strings.Fields(line)
	if len(fs) < 4 {
		return nil, nil, fmt.Errorf("short line at %d", offset)
	}
	wcnt, err := strconv.ParseInt(fs[3], 16, 32)
	if err != nil || len(fs) < 4+2*int(wcnt)+1 {
		return nil, nil, fmt.Errorf("bad word count at %d", offset)
	}
	var words []string
	for i := range int(wcnt) {
		w := strings.ToLower(fs[4+2*i])
		if j := strings.IndexByte(w, '('); j >= 0 {
			w = w[:j] // adjective markers: (a), (p), (ip)
		}
		words = append(words, w)
	}
	rest := fs[4+2*wcnt:]
	pcnt, err := strconv.Atoi(rest[0])
	if err != nil || len(rest) < 1+4*pcnt {
		return nil, nil, fmt.Errorf("bad pointer count at %d", offset)
	}
	var hypers []int64
	for i := range pcnt {
		p := rest[1+4*i : 5+4*i]
		if p[0] != "@" {
			continue
		}
		off, err := strconv.ParseInt(p[1], 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("bad pointer at %d", offset)
		}
		hypers = append(hypers, off)
	}
	return words, hypers, nil
}

func letters(w string) bool {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

func sorted(m map[string]bool) string {
	ws := make([]string, 0, len(m))
	for w := range m {
		ws = append(ws, w)
	}
	sort.Strings(ws)
	return strings.Join(ws, " ")
}

func write(path string, table map[string]*entry) error {
	heads := make([]string, 0, len(table))
	for w, e := range table {
		for s := range e.syn {
			delete(e.hyp, s)
		}
		if len(e.syn)+len(e.hyp) > 0 {
			heads = append(heads, w)
		}
	}
	sort.Strings(heads)
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("create %s: %w", tmp, err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	for _, w := range heads {
		fmt.Fprintf(bw, "%s\t%s\t%s\n", w, sorted(table[w].syn), sorted(table[w].hyp))
	}
	for _, c := range []interface{ Flush() error }{bw} {
		if err := c.Flush(); err != nil {
			return fmt.Errorf("write %s: %w", tmp, err)
		}
	}
	var closers = []io.Closer{zw, f}
	for _, c := range closers {
		if err := c.Close(); err != nil {
			return fmt.Errorf("write %s: %w", tmp, err)
		}
	}
	return os.Rename(tmp, path)
}
