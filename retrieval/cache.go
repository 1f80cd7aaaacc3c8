package retrieval

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/reach-agent/reach/workspace"
)

// Cache keeps the vectors of an Embedder on disk, keyed by model and a
// hash of the text: only texts never seen before are sent to the model.
// One file per model under Dir. Safe for concurrent use.
type Cache struct {
	Inner Embedder
	Model string
	Dir   string

	mu     sync.Mutex
	loaded bool
	vecs   map[string][]float32
	hits   int
	misses int
}

// Stats reports how many texts were answered from the cache and how many
// had to be computed.
func (c *Cache) Stats() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// Path is the cache file of the model.
func (c *Cache) Path() string {
	sum := sha256.Sum256([]byte(c.Model))
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, c.Model)
	if len(safe) > 40 {
		safe = safe[:40]
	}
	return filepath.Join(c.Dir, fmt.Sprintf("%s-%s.json", safe, hex.EncodeToString(sum[:4])))
}

func (c *Cache) key(text string) string {
	sum := sha256.Sum256([]byte(c.Model + "\x00" + text))
	return hex.EncodeToString(sum[:16])
}

// Embed implements Embedder.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	var missing []string
	var at []int
	for i, t := range texts {
		if v, ok := c.vecs[c.key(t)]; ok {
			out[i] = v
			c.hits++
			continue
		}
		missing = append(missing, t)
		at = append(at, i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	vs, err := c.Inner.Embed(ctx, missing)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(missing) {
		return nil, fmt.Errorf("embeddings (%s): %d vectors for %d texts", c.Model, len(vs), len(missing))
	}
	c.misses += len(missing)
	for j, v := range vs {
		out[at[j]] = v
		c.vecs[c.key(missing[j])] = v
	}
	return out, c.save()
}

func (c *Cache) load() error {
	if c.loaded {
		return nil
	}
	c.vecs = map[string][]float32{}
	data, err := os.ReadFile(c.Path())
	if errors.Is(err, fs.ErrNotExist) {
		c.loaded = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("read embedding cache: %w", err)
	}
	var enc map[string]string
	if err := json.Unmarshal(data, &enc); err != nil {
		// A damaged cache costs recomputation, never the run.
		c.loaded = true
		return nil
	}
	for k, s := range enc {
		if v, ok := decodeVector(s); ok {
			c.vecs[k] = v
		}
	}
	c.loaded = true
	return nil
}

func (c *Cache) save() error {
	enc := make(map[string]string, len(c.vecs))
	for k, v := range c.vecs {
		enc[k] = encodeVector(v)
	}
	data, err := json.Marshal(enc)
	if err != nil {
		return fmt.Errorf("encode embedding cache: %w", err)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("save embedding cache: %w", err)
	}
	if err := workspace.WriteFileAtomic(c.Path(), data, 0o644); err != nil {
		return fmt.Errorf("save embedding cache: %w", err)
	}
	return nil
}

// encodeVector stores a vector as base64 of little-endian float32s: about
// a third of the size of JSON numbers, and exact.
func encodeVector(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func decodeVector(s string) ([]float32, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%4 != 0 || len(b) == 0 {
		return nil, false
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, true
}
