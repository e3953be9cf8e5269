package cache

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newCache(t *testing.T, capacity int) (*Cache[string, int], *clock) {
	t.Helper()
	clk := &clock{t: time.Unix(1000, 0)}
	c, err := New[string, int](capacity, time.Minute, clk.now)
	if err != nil {
		t.Fatal(err)
	}
	return c, clk
}

func TestNewRejectsBadSettings(t *testing.T) {
	if _, err := New[string, int](0, time.Second, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("capacity 0: %v", err)
	}
	if _, err := New[string, int](1, 0, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("ttl 0: %v", err)
	}
	if c, err := New[string, int](1, time.Second, nil); err != nil || c.Len() != 0 {
		t.Errorf("nil clock: %v", err)
	}
}

func TestLRUAndStats(t *testing.T) {
	c, _ := newCache(t, 2)
	c.Set("a", 1)
	c.Set("b", 2)
	c.Get("a")
	c.Set("c", 3)
	if _, ok := c.Get("b"); ok {
		t.Error("b should have been evicted")
	}
	c.Set("a", 10)
	if v, ok := c.Get("a"); !ok || v != 10 {
		t.Errorf("a = %d, %v", v, ok)
	}
	if got := c.Stats(); got != (Stats{Hits: 2, Misses: 1, Evictions: 1}) {
		t.Errorf("stats %+v", got)
	}
}

func TestExpiry(t *testing.T) {
	c, clk := newCache(t, 5)
	c.Set("a", 1)
	clk.advance(59 * time.Second)
	if _, ok := c.Get("a"); !ok {
		t.Error("expired too early")
	}
	clk.advance(time.Second)
	if _, ok := c.Get("a"); ok || c.Len() != 0 {
		t.Error("not expired at ttl")
	}
	c.Set("b", 2)
	if !c.Delete("b") || c.Delete("b") {
		t.Error("Delete")
	}
	c.Set("c", 3)
	clk.advance(time.Hour)
	if c.Delete("c") {
		t.Error("Delete of an expired entry reported it")
	}
}

func TestGetOrLoadSharesOneLoad(t *testing.T) {
	c, _ := newCache(t, 5)
	release := make(chan struct{})
	load := func(context.Context) (int, error) {
		<-release
		return 42, nil
	}
	var wg sync.WaitGroup
	results := make([]int, 5)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i], _ = c.GetOrLoad(context.Background(), "k", load)
		}(i)
	}
	for c.Stats().Misses < 5 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	for _, r := range results {
		if r != 42 {
			t.Fatalf("results %v", results)
		}
	}
	if s := c.Stats(); s.Loads != 1 {
		t.Errorf("loads %d", s.Loads)
	}
	if v, err := c.GetOrLoad(context.Background(), "k", nil); v != 42 || err != nil {
		t.Errorf("cached: %d %v", v, err)
	}
}

func TestGetOrLoadErrorsAndCancel(t *testing.T) {
	c, _ := newCache(t, 5)
	boom := errors.New("boom")
	if _, err := c.GetOrLoad(context.Background(), "k", func(context.Context) (int, error) { return 0, boom }); err != boom {
		t.Errorf("error %v", err)
	}
	if _, ok := c.Get("k"); ok {
		t.Error("an error was cached")
	}
	if _, err := c.GetOrLoad(context.Background(), "p", func(context.Context) (int, error) { panic("x") }); err == nil {
		t.Error("a panicking load gave no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	release := make(chan struct{})
	defer close(release)
	_, err := c.GetOrLoad(ctx, "slow", func(context.Context) (int, error) { <-release; return 1, nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
