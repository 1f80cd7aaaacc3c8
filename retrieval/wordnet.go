package retrieval

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"
)

//go:generate go run ./internal/gen -dict /usr/share/wordnet -o wordnet.txt.gz

// wordNetGz is a thesaurus generated from Princeton WordNet 3.0 (see
// WORDNET-LICENSE and internal/gen): for each common noun, verb and
// adjective, the synonyms and direct hypernyms of its first sense.
//
//go:embed wordnet.txt.gz
var wordNetGz []byte

// wordNet parses the embedded table on first use, not at start-up: a
// command that never ranks tools never pays for it. The table is
// immutable once loaded, so the one shared copy is safe for concurrent use.
var wordNet = sync.OnceValues(func() (*thesaurus, error) { return parseThesaurus(bytes.NewReader(wordNetGz)) })

// synonyms are the words related to one head word.
type synonyms struct {
	syn, hyp []string
}

// thesaurus maps a word, or failing that its stem, to related words.
type thesaurus struct {
	byWord map[string]synonyms
	byStem map[string]synonyms
}

// parseThesaurus reads a gzip'd table of lines
// "word<TAB>synonym synonym…<TAB>hypernym hypernym…".
func parseThesaurus(r io.Reader) (*thesaurus, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("read thesaurus: %w", err)
	}
	defer zr.Close()
	th := &thesaurus{byWord: map[string]synonyms{}, byStem: map[string]synonyms{}}
	sc := bufio.NewScanner(zr)
	for n := 1; sc.Scan(); n++ {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 || fs[0] == "" {
			return nil, fmt.Errorf("read thesaurus: line %d: want word, synonyms and hypernyms separated by tabs", n)
		}
		s := synonyms{syn: strings.Fields(fs[1]), hyp: strings.Fields(fs[2])}
		th.byWord[fs[0]] = s
		st := stem(fs[0])
		prev := th.byStem[st]
		th.byStem[st] = synonyms{syn: append(prev.syn, s.syn...), hyp: append(prev.hyp, s.hyp...)}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read thesaurus: %w", err)
	}
	return th, nil
}

// related returns the synonyms of word, or of its stem when word itself
// is not a head word (plurals, inflections).
func (th *thesaurus) related(word, stemmed string) synonyms {
	if th == nil {
		return synonyms{}
	}
	if s, ok := th.byWord[word]; ok {
		return s
	}
	return th.byStem[stemmed]
}
