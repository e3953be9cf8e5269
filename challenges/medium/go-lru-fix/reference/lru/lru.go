// Package lru is a fixed-capacity cache that evicts the least recently used entry.
package lru

import "container/list"

type entry[K comparable, V any] struct {
	key   K
	value V
}

// Cache keeps at most Capacity entries; it is not safe for concurrent use.
type Cache[K comparable, V any] struct {
	capacity int
	order    *list.List // front: most recently used
	items    map[K]*list.Element
	onEvict  func(K, V)
}

// New returns an empty cache holding at most capacity entries (at least 1).
func New[K comparable, V any](capacity int) *Cache[K, V] {
	if capacity < 1 {
		capacity = 1
	}
	return &Cache[K, V]{capacity: capacity, order: list.New(), items: map[K]*list.Element{}}
}

// OnEvict sets a function called with each entry evicted for room (not for Delete).
func (c *Cache[K, V]) OnEvict(fn func(K, V)) {
	c.onEvict = fn
}

// Get returns the value of key and whether it was there; a hit makes key the most recently used.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	if el, ok := c.items[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*entry[K, V]).value, true
	}
	var zero V
	return zero, false
}

// Peek returns the value of key without changing its recency.
func (c *Cache[K, V]) Peek(key K) (V, bool) {
	if el, ok := c.items[key]; ok {
		return el.Value.(*entry[K, V]).value, true
	}
	var zero V
	return zero, false
}

// Put stores value under key (the most recently used), evicting the least recently used entry
// when full.
func (c *Cache[K, V]) Put(key K, value V) {
	if el, ok := c.items[key]; ok {
		el.Value.(*entry[K, V]).value = value
		c.order.MoveToFront(el)
		return
	}
	c.items[key] = c.order.PushFront(&entry[K, V]{key: key, value: value})
	if c.order.Len() > c.capacity {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		e := oldest.Value.(*entry[K, V])
		delete(c.items, e.key)
		if c.onEvict != nil {
			c.onEvict(e.key, e.value)
		}
	}
}

// Delete removes key; it reports whether key was there.
func (c *Cache[K, V]) Delete(key K) bool {
	el, ok := c.items[key]
	if ok {
		c.order.Remove(el)
		delete(c.items, key)
	}
	return ok
}

// Len is the number of entries held.
func (c *Cache[K, V]) Len() int {
	return c.order.Len()
}

// Keys lists the keys from most to least recently used.
func (c *Cache[K, V]) Keys() []K {
	keys := make([]K, 0, c.order.Len())
	for el := c.order.Front(); el != nil; el = el.Next() {
		keys = append(keys, el.Value.(*entry[K, V]).key)
	}
	return keys
}
