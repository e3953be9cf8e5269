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
}

// New returns an empty cache holding at most capacity entries (at least 1).
func New[K comparable, V any](capacity int) *Cache[K, V] {
	if capacity < 1 {
		capacity = 1
	}
	return &Cache[K, V]{capacity: capacity, order: list.New(), items: map[K]*list.Element{}}
}

// Get returns the value of key and whether it was there.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	if el, ok := c.items[key]; ok {
		return el.Value.(*entry[K, V]).value, true
	}
	var zero V
	return zero, false
}

// Put stores value under key, evicting the least recently used entry when full.
func (c *Cache[K, V]) Put(key K, value V) {
	el := c.order.PushFront(&entry[K, V]{key: key, value: value})
	c.items[key] = el
	if c.order.Len() > c.capacity {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*entry[K, V]).key)
	}
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
