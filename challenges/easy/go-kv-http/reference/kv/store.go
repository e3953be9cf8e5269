// Package kv is an in-memory key-value store and its HTTP API.
package kv

import (
	"sort"
	"sync"
)

// Store holds byte values by string key; it is safe for concurrent use.
type Store struct {
	mu     sync.RWMutex
	values map[string][]byte
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{values: map[string][]byte{}}
}

// Get returns a copy of the key's value and whether it exists.
func (s *Store) Get(key string) ([]byte, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	value, ok := s.values[key]
	return append([]byte(nil), value...), ok
}

// Put stores a copy of value and reports whether the key was new.
func (s *Store) Put(key string, value []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, existed := s.values[key]
	s.values[key] = append([]byte(nil), value...)
	return !existed
}

// Delete removes the key and reports whether it existed.
func (s *Store) Delete(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, existed := s.values[key]
	delete(s.values, key)
	return existed
}

// Keys returns every key, sorted.
func (s *Store) Keys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys := make([]string, 0, len(s.values))
	for key := range s.values {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}
