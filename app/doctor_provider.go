package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/reach-agent/reach/config"
)

func (d *Doctor) provider(ctx context.Context, models *modelLister) Check {
	return d.endpoint(ctx, models, "provider", d.Cfg.Endpoint)
}

func (d *Doctor) expert(ctx context.Context, models *modelLister, main Check) Check {
	if d.Cfg.NoExpert {
		return Check{"expert", StatusOK, "not offered (--no-expert)"}
	}
	if d.Cfg.Expert == d.Cfg.Endpoint {
		return Check{"expert", main.Status, "the main model answers expert questions (set --expert-model to use another)"}
	}
	return d.endpoint(ctx, models, "expert", d.Cfg.Expert)
}

// endpoint asks e's GET /models with its key and looks for its model.
func (d *Doctor) endpoint(ctx context.Context, models *modelLister, name string, e config.Endpoint) Check {
	where := e.Provider + " at " + e.BaseURL
	if e.APIKey == "" && e.APIKeyEnv != "" {
		return Check{name, StatusFail, fmt.Sprintf("%s: no API key: set %s", where, e.APIKeyEnv)}
	}
	ids, err := models.list(ctx, e)
	if err != nil {
		return Check{name, StatusFail, fmt.Sprintf("%s: %v", where, err)}
	}
	if e.Model == "" {
		return Check{name, StatusOK, fmt.Sprintf("%s answers (%d models)", where, len(ids))}
	}
	for _, id := range ids {
		if id == e.Model {
			return Check{name, StatusOK, fmt.Sprintf("%s answers; model %s is listed", where, e.Model)}
		}
	}
	return Check{name, StatusWarn, fmt.Sprintf("%s answers, but model %s is not among its %d models; check --%smodel",
		where, e.Model, len(ids), map[bool]string{true: "expert-"}[name == "expert"])}
}

// modelLister fetches GET /models once per base URL and key.
type modelLister struct {
	client *http.Client
	seen   map[string][]string
}

func (l *modelLister) list(ctx context.Context, e config.Endpoint) ([]string, error) {
	key := e.BaseURL + "\x00" + e.APIKey.Value()
	if ids, ok := l.seen[key]; ok {
		return ids, nil
	}
	ids, err := fetchModels(ctx, l.client, e)
	if err != nil {
		return nil, err
	}
	if l.seen == nil {
		l.seen = map[string][]string{}
	}
	l.seen[key] = ids
	return ids, nil
}

func fetchModels(ctx context.Context, client *http.Client, e config.Endpoint) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(e.BaseURL, "/")+"/models", nil)
	if err != nil {
		return nil, fmt.Errorf("bad base URL: %w", err)
	}
	if k := e.APIKey.Value(); k != "" {
		req.Header.Set("Authorization", "Bearer "+k)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET /models: unreachable: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		hint := "check the key"
		if e.APIKeyEnv != "" {
			hint = "check " + e.APIKeyEnv
		}
		return nil, fmt.Errorf("GET /models: the key was rejected (HTTP %d): %s", resp.StatusCode, hint)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("GET /models: HTTP %d: %s", resp.StatusCode, clipLine(string(body), 200))
	}
	return parseModelIDs(body)
}

func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// parseModelIDs reads an OpenAI-style model list: {"data":[{"id":…}]}.
func parseModelIDs(body []byte) ([]string, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("GET /models: not an OpenAI-style model list (%v): %s", err, clipLine(string(body), 120))
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}
