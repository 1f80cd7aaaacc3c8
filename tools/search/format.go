package search

import (
	"fmt"
	"sort"
	"strings"
)

// Limits on what a search keeps, so that a pattern matching everything
// cannot exhaust memory before the output is shaped.
const (
	maxLineBytes  = 500     // a longer line is cut and says by how much
	maxKeptLines  = 100_000 // lines kept across all files; later ones are only counted
	noMatchOutput = "No matches found."
)

// query is a validated search request, the same for both backends.
type query struct {
	Pattern       string
	Fixed         bool
	CaseSensitive bool
	Before, After int
	Hidden        bool
	Follow        bool
	TypeName      string   // canonical file type, "" for all
	TypeGlobs     []string // base-name globs of TypeName
	Paths         []string // relative to the root; nil for the whole tree
	Exclude       []string // directory (and file) base names never searched
}

// outLine is one line of output: a match or a context line.
type outLine struct {
	Num   int
	Text  string
	Match bool
}

// results collects output lines per file; it is not safe for concurrent use.
type results struct {
	files   map[string][]outLine
	matches int
	kept    int
	dropped int // lines counted but not kept
	// unshown holds the files whose lines were all dropped: they count in
	// the header's number of files.
	unshown map[string]bool
	context bool // context lines were asked for: separate groups with "--"
}

func newResults(context bool) *results {
	return &results{files: map[string][]outLine{}, context: context}
}

func (r *results) add(path string, lines []outLine) {
	for _, l := range lines {
		if l.Match {
			r.matches++
		}
	}
	if r.kept >= maxKeptLines {
		r.dropped += len(lines)
		if _, shown := r.files[path]; !shown {
			if r.unshown == nil {
				r.unshown = map[string]bool{}
			}
			r.unshown[path] = true
		}
		return
	}
	r.kept += len(lines)
	r.files[path] = append(r.files[path], lines...)
}

// format renders results as path:line:text (matches) and path-line-text
// (context), files in path order, "--" between separate context groups,
// and a first line with the counts.
func (r *results) format() string {
	if r.matches == 0 {
		return noMatchOutput
	}
	paths := make([]string, 0, len(r.files))
	for p := range r.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	nfiles := len(paths) + len(r.unshown)
	fmt.Fprintf(&b, "%d %s in %d %s\n", r.matches, plural(r.matches, "match", "matches"), nfiles, plural(nfiles, "file", "files"))
	for i, p := range paths {
		if i > 0 {
			b.WriteByte('\n')
		}
		lines := r.files[p]
		sort.SliceStable(lines, func(a, b int) bool { return lines[a].Num < lines[b].Num })
		prev := 0
		for _, l := range lines {
			if l.Num == prev {
				continue // the same line reported twice
			}
			if r.context && prev > 0 && l.Num > prev+1 {
				b.WriteString("--\n")
			}
			sep := '-'
			if l.Match {
				sep = ':'
			}
			fmt.Fprintf(&b, "%s%c%d%c%s\n", p, sep, l.Num, sep, clip(l.Text))
			prev = l.Num
		}
	}
	if r.dropped > 0 {
		fmt.Fprintf(&b, "[%d more lines not shown; use a more specific pattern, file_type or include_paths]\n", r.dropped)
	}
	return b.String()
}

func clip(s string) string {
	if len(s) <= maxLineBytes {
		return s
	}
	cut := maxLineBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return fmt.Sprintf("%s … [%d more bytes]", s[:cut], len(s)-cut)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
