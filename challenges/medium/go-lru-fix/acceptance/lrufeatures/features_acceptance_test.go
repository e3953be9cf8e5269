package lrufeatures_test

import (
	"reflect"
	"testing"

	"example.com/lrucache/lru"
)

func TestAcceptancePeekLeavesRecency(t *testing.T) {
	c := lru.New[string, int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	if v, ok := c.Peek("a"); !ok || v != 1 {
		t.Fatalf("Peek(a) = %v, %v", v, ok)
	}
	c.Put("c", 3)
	if _, ok := c.Peek("a"); ok {
		t.Fatal("Peek must not refresh a")
	}
	if _, ok := c.Peek("missing"); ok {
		t.Fatal("Peek(missing) found something")
	}
}

func TestAcceptanceDelete(t *testing.T) {
	c := lru.New[int, string](3)
	c.Put(1, "x")
	c.Put(2, "y")
	if !c.Delete(1) || c.Delete(1) || c.Len() != 1 {
		t.Fatalf("Delete: Len() = %d", c.Len())
	}
	if !reflect.DeepEqual(c.Keys(), []int{2}) {
		t.Fatalf("Keys() = %v", c.Keys())
	}
}

func TestAcceptanceOnEvict(t *testing.T) {
	c := lru.New[string, int](1)
	var got []string
	c.OnEvict(func(k string, v int) { got = append(got, k) })
	c.Put("a", 1)
	c.Put("a", 2)
	c.Put("b", 3)
	c.Delete("b")
	if !reflect.DeepEqual(got, []string{"a"}) {
		t.Fatalf("evicted %v, want [a]", got)
	}
}
