package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// fileKind says which config file is read; the project file has extra rules.
type fileKind int

const (
	userFile fileKind = iota
	projectFile
)

// readFile reads one config file. A missing file is not an error: it returns
// ok == false.
func readFile(path string, kind fileKind) (s settings, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return settings{}, false, nil
	}
	if err != nil {
		return settings{}, false, fileUsage(&FileError{File: path,
			Msg: fmt.Sprintf("cannot be read: %v: fix its permissions or remove it", unwrapPath(err))})
	}
	s, err = decodeFile(path, string(data))
	if err != nil {
		return settings{}, false, err
	}
	if kind == projectFile {
		if err := checkProjectFile(path, &s); err != nil {
			return settings{}, false, err
		}
	}
	return s, true, nil
}

func decodeFile(path, text string) (settings, error) {
	// Parse once without a schema so syntax errors are told apart from
	// wrong types.
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		fe := &FileError{File: path, Msg: fmt.Sprintf("is not valid TOML: %v: fix the syntax", err)}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fe.Line = pe.Position.Line
			fe.Msg = fmt.Sprintf("is not valid TOML: %s: fix the syntax on that line", pe.Message)
		}
		return settings{}, fileUsage(fe)
	}

	var s settings
	md, err := toml.Decode(text, &s)
	if err != nil {
		fe := &FileError{File: path, Msg: err.Error()}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fe.Line, fe.Key, fe.Msg = pe.Position.Line, pe.LastKey, pe.Message
			if sub, rest, ok := strings.Cut(fe.Msg, ": "); ok && fe.Key == "policy" && isPolicyList(sub) {
				fe.Key, fe.Msg = "policy."+sub, rest
			}
		}
		return settings{}, fileUsage(fe)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		key := undecoded[0].String()
		return settings{}, fileUsage(&FileError{File: path, Key: key, Msg: unknownKeyMsg(key)})
	}
	for _, list := range []struct {
		key      string
		patterns []string
	}{{"allow", s.Policy.Allow.V}, {"ask", s.Policy.Ask.V}, {"deny", s.Policy.Deny.V}} {
		for i, p := range list.patterns {
			if strings.TrimSpace(p) == "" {
				return settings{}, fileUsage(&FileError{File: path, Key: "policy." + list.key,
					Msg: fmt.Sprintf("has an empty pattern (item %d): remove it", i+1)})
			}
		}
	}
	return s, nil
}

func isPolicyList(key string) bool { return key == "allow" || key == "ask" || key == "deny" }

func unknownKeyMsg(key string) string {
	if flag, ok := perRunKeys()[key]; ok {
		return fmt.Sprintf("cannot be set in a config file: it is for one run; pass %s on the command line", flag)
	}
	msg := "is not a reach setting"
	if near := nearestKey(key); near != "" {
		msg += fmt.Sprintf(": did you mean %s?", near)
	} else {
		msg += ": remove it; the keys are the flag names with underscores (see reach --help)"
	}
	return msg
}

// fileKeys lists the keys config files accept, in declaration order.
func fileKeys() []string {
	t := reflect.TypeFor[settings]()
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("toml"); tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	return keys
}

// nearestKey suggests the valid key closest to a mistyped one, or "".
func nearestKey(key string) string {
	norm := strings.ToLower(strings.ReplaceAll(key, "-", "_"))
	// Suggest only within two edits, one for short keys.
	best, bestDist := "", 3
	if len(norm) < 5 {
		bestDist = 2
	}
	for _, k := range fileKeys() {
		if k == norm {
			return k
		}
		if d := editDistance(norm, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between two ASCII strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checkProjectFile refuses settings a cloned repository must not choose for
// the user: the ones that turn off approval, the sandbox or its network
// isolation, and the location of the project file itself.
func checkProjectFile(path string, s *settings) error {
	refuse := func(key, flag string) error {
		return fileUsage(&FileError{File: path, Key: key, Msg: fmt.Sprintf(
			"cannot be set in a project config, which comes with the repository: pass %s, or set it in your user config", flag)})
	}
	switch {
	case s.Cowboy.Set && s.Cowboy.V:
		return refuse("cowboy_mode", "--cowboy-mode")
	case s.AllowNetwork.Set && s.AllowNetwork.V:
		return refuse("allow_network", "--allow-network")
	case s.Sandbox.Set && Sandbox(s.Sandbox.V) == SandboxOff:
		return refuse(`sandbox = "off"`, "--sandbox off")
	case s.ProjectStateDir.Set:
		return fileUsage(&FileError{File: path, Key: "project_state_dir", Msg: "cannot be set in the project config, " +
			"which lives inside the state dir: pass --project-state-dir, or set it in your user config"})
	}
	return nil
}

// unwrapPath drops the path from an *fs.PathError, which the caller names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
