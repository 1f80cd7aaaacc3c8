//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// genPaths prints the seed paths under go/src/ plus synthetic ones up to n,
// built from the seed's directory and file-name words.
func genPaths(nArg, seedFile string, stdout io.Writer) error {
	n, err := strconv.Atoi(nArg)
	if err != nil {
		return fmt.Errorf("N: %w", err)
	}
	seed, err := readLines(seedFile)
	if err != nil {
		return err
	}
	var dirWords, fileWords []string
	seenD, seenF := map[string]bool{}, map[string]bool{}
	for _, p := range seed {
		for _, d := range strings.Split(path.Dir(p), "/") {
			if len(d) > 2 && isWord(d) && !seenD[d] {
				seenD[d] = true
				dirWords = append(dirWords, d)
			}
		}
		stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
		for _, w := range strings.FieldsFunc(stem, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			w = strings.ToLower(w)
			if len(w) > 2 && isWord(w) && !seenF[w] {
				seenF[w] = true
				fileWords = append(fileWords, w)
			}
		}
	}
	sort.Strings(dirWords)
	sort.Strings(fileWords)
	r := rand.New(rand.NewPCG(1, 2))
	tops := []string{"services", "libs", "apps", "internal", "pkg", "web", "tools", "platform"}
	exts := []string{".go", ".go", ".py", ".ts", ".tsx", ".rs", ".java", ".md", ".yaml", ".json", ".c", ".h"}
	w := bufio.NewWriter(stdout)
	seen := map[string]bool{}
	for _, p := range seed {
		p = "go/src/" + p
		seen[p] = true
		fmt.Fprintln(w, p)
	}
	for len(seen) < n {
		parts := []string{tops[r.IntN(len(tops))]}
		for range 1 + r.IntN(4) {
			parts = append(parts, dirWords[r.IntN(len(dirWords))])
		}
		words := make([]string, 1+r.IntN(3))
		for i := range words {
			words[i] = fileWords[r.IntN(len(fileWords))]
		}
		var name string
		switch r.IntN(3) {
		case 0:
			name = strings.Join(words, "_")
		case 1:
			name = camel(words, r.IntN(2) == 0)
		default:
			name = strings.Join(words, "-")
		}
		p := strings.Join(parts, "/") + "/" + name + exts[r.IntN(len(exts))]
		if !seen[p] {
			seen[p] = true
			fmt.Fprintln(w, p)
		}
	}
	return w.Flush()
}

func camel(words []string, upperFirst bool) string {
	var b strings.Builder
	for i, wd := range words {
		if i > 0 || upperFirst {
			wd = strings.ToUpper(wd[:1]) + wd[1:]
		}
		b.WriteString(wd)
	}
	return b.String()
}

func isWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) || r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// genQueries picks targets whose query is unambiguous and prints per
// queries of each kind: a base name with one typo (a dropped, swapped or
// wrong letter), parent/stem, and camelCase initials with the extension.
func genQueries(list, perArg string, stdout io.Writer) error {
	per, err := strconv.Atoi(perArg)
	if err != nil {
		return fmt.Errorf("PER: %w", err)
	}
	paths, err := readLines(list)
	if err != nil {
		return err
	}
	baseCount, parentStem, initials := map[string]int{}, map[string]int{}, map[string]int{}
	for _, p := range paths {
		baseCount[strings.ToLower(path.Base(p))]++
		parentStem[strings.ToLower(parentStemOf(p))]++
		if in := initialsOf(p); in != "" {
			initials[strings.ToLower(in)]++
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	order := r.Perm(len(paths))
	w := bufio.NewWriter(stdout)
	var nb, np, nc int
	for _, i := range order {
		p := paths[i]
		base := path.Base(p)
		stem := strings.TrimSuffix(base, path.Ext(base))
		if nb < per && baseCount[strings.ToLower(base)] == 1 && len(stem) >= 6 {
			fmt.Fprintf(w, "base-typo\t%s\t%s\n", typo(r, base, len(stem)), p)
			nb++
		}
		if np < per && parentStem[strings.ToLower(parentStemOf(p))] == 1 && strings.Contains(p, "/") {
			fmt.Fprintf(w, "parent/stem\t%s\t%s\n", parentStemOf(p), p)
			np++
		}
		if in := initialsOf(p); nc < per && in != "" && initials[strings.ToLower(in)] == 1 {
			fmt.Fprintf(w, "camel-initials\t%s\t%s\n", in, p)
			nc++
		}
		if nb == per && np == per && nc == per {
			break
		}
	}
	return w.Flush()
}

func parentStemOf(p string) string {
	base := path.Base(p)
	return path.Base(path.Dir(p)) + "/" + strings.TrimSuffix(base, path.Ext(base))
}

// initialsOf returns the capitals of a camelCase file name with at least
// three humps plus its extension, e.g. NewFileServer.go → NFS.go.
func initialsOf(p string) string {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	var caps []rune
	for i, c := range stem {
		if unicode.IsUpper(c) || (i == 0 && unicode.IsLower(c)) {
			caps = append(caps, c)
		} else if !unicode.IsLetter(c) {
			return ""
		}
	}
	if len(caps) < 3 {
		return ""
	}
	return string(caps) + path.Ext(base)
}

// typo changes one letter of the stem (the first n bytes): drops it, swaps
// it with the next, or replaces it with a neighbour on the keyboard row.
func typo(r *rand.Rand, base string, n int) string {
	i := 1 + r.IntN(n-2)
	b := []byte(base)
	switch r.IntN(3) {
	case 0:
		return string(append(b[:i:i], b[i+1:]...))
	case 1:
		b[i], b[i+1] = b[i+1], b[i]
		return string(b)
	default:
		row := "qwertyuiopasdfghjklzxcvbnm"
		k := strings.IndexByte(row, b[i]|0x20)
		if k < 0 {
			k = 0
		}
		b[i] = row[(k+1)%len(row)]
		return string(b)
	}
}
