// Package cache is a concurrency-safe LRU cache with a time-to-live and single-flight loading.
package cache

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrInvalid is wrapped by New's errors for a bad capacity or ttl.
var ErrInvalid = errors.New("invalid cache settings")

// Stats counts what the cache did.
type Stats struct {
	Hits, Misses, Loads, Evictions uint64
}

type entry[K comparable, V any] struct {
	key   K
	value V
	set   time.Time
}

// call is one load in flight; done is closed once value and err are set.
type call[V any] struct {
	done  chan struct{}
	value V
	err   error
}

// Cache is an LRU cache whose entries expire ttl after they were set.
type Cache[K comparable, V any] struct {
	mu       sync.Mutex
	capacity int
	ttl      time.Duration
	now      func() time.Time
	order    *list.List // front: most recently used; values are *entry[K, V]
	items    map[K]*list.Element
	inflight map[K]*call[V]
	stats    Stats
}

// New returns an empty cache (see the README for the rules).
func New[K comparable, V any](capacity int, ttl time.Duration, now func() time.Time) (*Cache[K, V], error) {
	if capacity < 1 {
		return nil, fmt.Errorf("capacity %d: %w", capacity, ErrInvalid)
	}
	if ttl <= 0 {
		return nil, fmt.Errorf("ttl %v: %w", ttl, ErrInvalid)
	}
	if now == nil {
		now = time.Now
	}
	return &Cache[K, V]{capacity: capacity, ttl: ttl, now: now, order: list.New(),
		items: map[K]*list.Element{}, inflight: map[K]*call[V]{}}, nil
}

// lookup returns the fresh entry for key (removing an expired one); the lock must be held.
func (c *Cache[K, V]) lookup(key K) (*entry[K, V], bool) {
	element, ok := c.items[key]
	if !ok {
		return nil, false
	}
	e := element.Value.(*entry[K, V])
	if c.now().Sub(e.set) >= c.ttl {
		c.order.Remove(element)
		delete(c.items, key)
		return nil, false
	}
	return e, true
}

// get is Get with the lock held, counting the hit or miss.
func (c *Cache[K, V]) get(key K) (V, bool) {
	e, ok := c.lookup(key)
	if !ok {
		c.stats.Misses++
		var zero V
		return zero, false
	}
	c.stats.Hits++
	c.order.MoveToFront(c.items[key])
	return e.value, true
}

// Get returns the key's value when present and fresh.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(key)
}

// set is Set with the lock held.
func (c *Cache[K, V]) set(key K, value V) {
	if element, ok := c.items[key]; ok {
		element.Value = &entry[K, V]{key: key, value: value, set: c.now()}
		c.order.MoveToFront(element)
		return
	}
	c.items[key] = c.order.PushFront(&entry[K, V]{key: key, value: value, set: c.now()})
	if c.order.Len() > c.capacity {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*entry[K, V]).key)
		c.stats.Evictions++
	}
}

// Set adds or replaces the key's value.
func (c *Cache[K, V]) Set(key K, value V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(key, value)
}

// Delete removes the key, reporting whether a fresh entry was there.
func (c *Cache[K, V]) Delete(key K) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, fresh := c.lookup(key)
	if element, ok := c.items[key]; ok {
		c.order.Remove(element)
		delete(c.items, key)
	}
	return fresh
}

// Len counts the fresh entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	count := 0
	for key := range c.items {
		if _, ok := c.lookup(key); ok {
			count++
		}
	}
	return count
}

// Stats returns the counters so far.
func (c *Cache[K, V]) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// GetOrLoad returns the fresh value, or the result of one shared load (see the README).
func (c *Cache[K, V]) GetOrLoad(ctx context.Context, key K, load func(context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	if value, ok := c.get(key); ok {
		c.mu.Unlock()
		return value, nil
	}
	flight, waiting := c.inflight[key]
	if !waiting {
		flight = &call[V]{done: make(chan struct{})}
		c.inflight[key] = flight
		c.stats.Loads++
	}
	c.mu.Unlock()
	if !waiting {
		go c.run(ctx, key, flight, load)
	}
	select {
	case <-flight.done:
		return flight.value, flight.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// run calls load without holding the lock, stores a success and wakes every waiter.
func (c *Cache[K, V]) run(ctx context.Context, key K, flight *call[V], load func(context.Context) (V, error)) {
	defer close(flight.done)
	defer func() {
		if recovered := recover(); recovered != nil {
			flight.err = fmt.Errorf("load panicked: %v", recovered)
		}
		c.mu.Lock()
		delete(c.inflight, key)
		if flight.err == nil {
			c.set(key, flight.value)
		}
		c.mu.Unlock()
	}()
	flight.value, flight.err = load(ctx)
}
