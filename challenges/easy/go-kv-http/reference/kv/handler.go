package kv

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
)

// MaxValueBytes is the largest value a PUT may store.
const MaxValueBytes = 1 << 20

var validKey = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

type handler struct {
	store *Store
}

// NewHandler serves the store's HTTP API (see the README).
func NewHandler(s *Store) http.Handler {
	return handler{store: s}
}

func (h handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/keys":
		h.list(w, r)
	case strings.HasPrefix(r.URL.Path, "/keys/"):
		h.key(w, r, strings.TrimPrefix(r.URL.Path, "/keys/"))
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

func (h handler) list(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string][]string{"keys": h.store.Keys()})
}

func (h handler) key(w http.ResponseWriter, r *http.Request, key string) {
	if !validKey.MatchString(key) {
		http.Error(w, "invalid key", http.StatusBadRequest)
		return
	}
	switch r.Method {
	case http.MethodGet:
		h.get(w, key)
	case http.MethodPut:
		h.put(w, r, key)
	case http.MethodDelete:
		if !h.store.Delete(key) {
			http.Error(w, "no such key", http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, PUT, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func (h handler) get(w http.ResponseWriter, key string) {
	value, ok := h.store.Get(key)
	if !ok {
		http.Error(w, "no such key", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(value)
}

func (h handler) put(w http.ResponseWriter, r *http.Request, key string) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxValueBytes))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		http.Error(w, "value too large", http.StatusRequestEntityTooLarge)
		return
	}
	if err != nil {
		http.Error(w, "could not read the body", http.StatusBadRequest)
		return
	}
	if h.store.Put(key, body) {
		w.WriteHeader(http.StatusCreated)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
