package audit

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// Redacted replaces a secret.
const Redacted = "[REDACTED]"

// secretKeyParts are pieces of argument names whose string values are
// secrets ("api_key", "X-Auth-Token", "dbPassword").
var secretKeyParts = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "authorization", "credential", "privatekey", "cookie", "sessionkey"}

// secretKey reports whether an argument name holds a secret.
func secretKey(k string) bool {
	flat := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == ' ' || r == '.' {
			return -1
		}
		return r
	}, strings.ToLower(k))
	if flat == "auth" || flat == "pass" || flat == "pwd" {
		return true
	}
	for _, p := range secretKeyParts {
		if strings.Contains(flat, p) {
			return true
		}
	}
	return false
}

// secretPatterns match secrets inside any text: provider keys, bearer
// tokens, private keys, passwords in URLs and in NAME=value assignments.
// They are compiled on first use, not at every reach start.
var secretPatterns = sync.OnceValue(func() []secretPattern {
	return []secretPattern{
		{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`), Redacted},
		{regexp.MustCompile(`\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}`), Redacted},
		{regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`), Redacted},
		{regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`), Redacted},
		{regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`), Redacted},
		{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`), Redacted}, // JWT
		{regexp.MustCompile(`(?i)\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}`), "$1 " + Redacted},
		{regexp.MustCompile(`(://[^\s:/@]+:)[^\s@/]+@`), "${1}" + Redacted + "@"},
		{regexp.MustCompile(`(?i)\b([A-Z0-9_]*(PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*)=("[^"]*"|'[^']*'|\S+)`), "${1}=" + Redacted},
		{regexp.MustCompile(`(?i)(--?(password|passwd|token|api-key|secret)[= ])("[^"]*"|'[^']*'|\S+)`), "${1}" + Redacted},
	}
})

type secretPattern struct {
	re   *regexp.Regexp
	repl string
}

// RedactText removes secrets from free text.
func RedactText(s string) string {
	for _, p := range secretPatterns() {
		s = p.re.ReplaceAllString(s, p.repl)
	}
	return s
}

// RedactJSON removes secrets from JSON arguments: values under secret-like
// keys are replaced whole, every other string is scanned for secrets.
// Arguments that are not JSON are kept as a redacted JSON string.
func RedactJSON(raw json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return json.RawMessage(`{}`)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		out, _ := json.Marshal(RedactText(string(raw)))
		return out
	}
	out, err := json.Marshal(redactValue(v))
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return out
}

func redactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if secretKey(k) {
				if _, isString := val.(string); isString {
					x[k] = Redacted
					continue
				}
			}
			x[k] = redactValue(val)
		}
		return x
	case []any:
		for i := range x {
			x[i] = redactValue(x[i])
		}
		return x
	case string:
		return RedactText(x)
	}
	return v
}
