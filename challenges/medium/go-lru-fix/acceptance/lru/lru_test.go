package lru

import (
	"reflect"
	"testing"
)

func TestPutGet(t *testing.T) {
	c := New[string, int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %v, %v", v, ok)
	}
	if _, ok := c.Get("zz"); ok {
		t.Fatal("Get(zz) found something")
	}
}

func TestEvictsOldestPut(t *testing.T) {
	c := New[string, int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	c.Put("c", 3)
	if _, ok := c.Get("a"); ok {
		t.Fatal("a should have been evicted")
	}
	if !reflect.DeepEqual(c.Keys(), []string{"c", "b"}) {
		t.Fatalf("Keys() = %v", c.Keys())
	}
}

func TestCapacityAtLeastOne(t *testing.T) {
	c := New[int, int](0)
	c.Put(1, 1)
	c.Put(2, 2)
	if c.Len() != 1 {
		t.Fatalf("Len() = %d", c.Len())
	}
}
