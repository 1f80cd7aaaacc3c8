package agent

import (
	"bytes"
	"encoding/json"

	"github.com/reach-agent/reach/tools"
)

// resultText is the tool message content the model receives: the result
// object of SPEC §3 as JSON.
func resultText(r tools.Result) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return `{"success":false,"error":"could not encode the tool result"}`
	}
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}

// canonicalJSON normalises arguments so that key order and spacing do not
// hide a repeated call. Malformed JSON is compared as written.
func canonicalJSON(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return s
	}
	return string(b)
}
