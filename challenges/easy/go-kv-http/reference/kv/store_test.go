package kv

import (
	"fmt"
	"sync"
	"testing"
)

func TestStore(t *testing.T) {
	s := NewStore()
	if !s.Put("b", []byte("1")) || s.Put("b", []byte("2")) {
		t.Fatal("Put should report new keys only")
	}
	s.Put("a", nil)
	if v, ok := s.Get("b"); !ok || string(v) != "2" {
		t.Fatalf("Get = %q, %v", v, ok)
	}
	if got := fmt.Sprint(s.Keys()); got != "[a b]" {
		t.Fatalf("Keys = %s", got)
	}
	if !s.Delete("a") || s.Delete("a") {
		t.Fatal("Delete should report existing keys only")
	}
	if _, ok := s.Get("a"); ok {
		t.Fatal("deleted key still there")
	}
}

func TestStoreCopiesValues(t *testing.T) {
	s := NewStore()
	value := []byte("abc")
	s.Put("k", value)
	value[0] = 'X'
	got, _ := s.Get("k")
	got[1] = 'Y'
	if again, _ := s.Get("k"); string(again) != "abc" {
		t.Fatalf("value changed to %q", again)
	}
}

func TestStoreConcurrent(t *testing.T) {
	s := NewStore()
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s.Put(fmt.Sprint(i), []byte("v"))
			s.Get(fmt.Sprint(i))
			s.Keys()
		}(i)
	}
	wg.Wait()
	if len(s.Keys()) != 50 {
		t.Fatalf("%d keys", len(s.Keys()))
	}
}
