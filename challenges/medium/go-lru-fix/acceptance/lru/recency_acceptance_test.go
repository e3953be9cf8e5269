package lru

import (
	"reflect"
	"testing"
)

func TestAcceptanceGetRefreshesRecency(t *testing.T) {
	c := New[string, int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	c.Get("a")
	c.Put("c", 3)
	if _, ok := c.Get("b"); ok {
		t.Fatal("b was least recently used and should have been evicted")
	}
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %v, %v", v, ok)
	}
}

func TestAcceptancePutExistingKeyReplaces(t *testing.T) {
	c := New[string, int](2)
	c.Put("a", 1)
	c.Put("a", 10)
	c.Put("b", 2)
	if c.Len() != 2 || !reflect.DeepEqual(c.Keys(), []string{"b", "a"}) {
		t.Fatalf("Len() = %d, Keys() = %v", c.Len(), c.Keys())
	}
	if v, _ := c.Get("a"); v != 10 {
		t.Fatalf("Get(a) = %v, want 10", v)
	}
	c.Put("b", 20)
	c.Put("c", 3)
	if !reflect.DeepEqual(c.Keys(), []string{"c", "b"}) {
		t.Fatalf("Keys() = %v, want [c b]", c.Keys())
	}
}
