package config

import "fmt"

// UsageError is a mistake in how reach was invoked or configured: a bad flag,
// environment variable or config file. The CLI prints Msg and exits with
// code 2.
type UsageError struct {
	// Flag names what is at fault: a flag ("--temperature"), an
	// environment variable ("OPENAI_API_KEY"), or "" for a config file
	// problem (then Err is a *FileError naming the file and key).
	Flag string
	// Msg is the whole message for the user: what is wrong and the fix.
	Msg string
	// Err is the underlying cause, if any.
	Err error
}

func (e *UsageError) Error() string { return e.Msg }

// Unwrap returns the underlying cause.
func (e *UsageError) Unwrap() error { return e.Err }

// FileError is a problem in one config file.
type FileError struct {
	File string // path of the config file
	Line int    // 1-based; 0 when unknown
	Key  string // the key at fault, dotted for tables ("policy.allow"); may be empty
	Msg  string // what is wrong and the fix, phrased to follow the key
}

func (e *FileError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Key == "" {
		return loc + ": " + e.Msg
	}
	return fmt.Sprintf("%s: %s %s", loc, e.Key, e.Msg)
}

func fileUsage(fe *FileError) *UsageError {
	return &UsageError{Msg: fe.Error(), Err: fe}
}

func usagef(flag, format string, args ...any) *UsageError {
	return &UsageError{Flag: flag, Msg: fmt.Sprintf(format, args...)}
}
