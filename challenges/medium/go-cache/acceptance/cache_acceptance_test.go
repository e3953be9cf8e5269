package cache_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"example.com/cache"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newCache(t *testing.T, capacity int, ttl time.Duration) (*cache.Cache[string, string], *fakeClock) {
	t.Helper()
	clock := &fakeClock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	c, err := cache.New[string, string](capacity, ttl, clock.Now)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, clock
}

// waitFor polls cond (the only way to know goroutines reached a blocking point); it gives up after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestAcceptanceInvalidSettings(t *testing.T) {
	for _, tc := range []struct {
		capacity int
		ttl      time.Duration
	}{{0, time.Second}, {-1, time.Second}, {1, 0}, {1, -time.Second}} {
		if _, err := cache.New[int, int](tc.capacity, tc.ttl, nil); !errors.Is(err, cache.ErrInvalid) {
			t.Errorf("New(%d, %v): %v", tc.capacity, tc.ttl, err)
		}
	}
}

func TestAcceptanceNilClockIsRealTime(t *testing.T) {
	c, err := cache.New[string, int](2, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Set("a", 1)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Errorf("Get = %d, %v", v, ok)
	}
}

func TestAcceptanceLeastRecentlyUsedIsEvicted(t *testing.T) {
	c, _ := newCache(t, 3, time.Hour)
	c.Set("a", "1")
	c.Set("b", "2")
	c.Set("c", "3")
	c.Get("a")
	c.Set("b", "2b")
	c.Set("d", "4")
	if _, ok := c.Get("c"); ok {
		t.Error("c should have been evicted")
	}
	for _, key := range []string{"a", "b", "d"} {
		if _, ok := c.Get(key); !ok {
			t.Errorf("%s was evicted", key)
		}
	}
	if c.Len() != 3 || c.Stats().Evictions != 1 {
		t.Errorf("len %d evictions %d", c.Len(), c.Stats().Evictions)
	}
}

func TestAcceptanceExpiryAtExactlyTTL(t *testing.T) {
	c, clock := newCache(t, 10, 10*time.Second)
	c.Set("k", "v")
	clock.Advance(10*time.Second - time.Nanosecond)
	if _, ok := c.Get("k"); !ok {
		t.Fatal("expired before ttl")
	}
	clock.Advance(time.Nanosecond)
	if _, ok := c.Get("k"); ok {
		t.Fatal("still fresh at ttl")
	}
	if c.Len() != 0 {
		t.Errorf("Len %d", c.Len())
	}
}

func TestAcceptanceSetRefreshesExpiry(t *testing.T) {
	c, clock := newCache(t, 10, 10*time.Second)
	c.Set("k", "v1")
	clock.Advance(8 * time.Second)
	c.Set("k", "v2")
	clock.Advance(8 * time.Second)
	if v, ok := c.Get("k"); !ok || v != "v2" {
		t.Errorf("Get = %q, %v", v, ok)
	}
}

func TestAcceptanceGetDoesNotRefreshExpiry(t *testing.T) {
	c, clock := newCache(t, 10, 10*time.Second)
	c.Set("k", "v")
	clock.Advance(6 * time.Second)
	c.Get("k")
	clock.Advance(6 * time.Second)
	if _, ok := c.Get("k"); ok {
		t.Error("a Get extended the entry's life")
	}
}

func TestAcceptanceLenAndDelete(t *testing.T) {
	c, clock := newCache(t, 10, 10*time.Second)
	c.Set("old", "1")
	clock.Advance(5 * time.Second)
	c.Set("new", "2")
	if c.Len() != 2 {
		t.Fatalf("Len %d", c.Len())
	}
	clock.Advance(5 * time.Second)
	if c.Len() != 1 {
		t.Errorf("Len after expiry %d", c.Len())
	}
	if c.Delete("old") {
		t.Error("Delete reported an expired entry")
	}
	if !c.Delete("new") || c.Delete("new") {
		t.Error("Delete of a fresh entry")
	}
	if c.Len() != 0 || c.Stats().Evictions != 0 {
		t.Errorf("Len %d, evictions %d", c.Len(), c.Stats().Evictions)
	}
}

func TestAcceptanceStats(t *testing.T) {
	c, _ := newCache(t, 1, time.Hour)
	c.Set("a", "1")
	c.Get("a")
	c.Get("zzz")
	c.Set("b", "2")
	c.GetOrLoad(context.Background(), "b", nil)
	c.GetOrLoad(context.Background(), "c", func(context.Context) (string, error) { return "3", nil })
	want := cache.Stats{Hits: 2, Misses: 2, Loads: 1, Evictions: 2}
	if got := c.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
}

func TestAcceptanceConcurrentCallersShareOneLoad(t *testing.T) {
	c, _ := newCache(t, 10, time.Hour)
	var calls atomic.Int32
	release := make(chan struct{})
	load := func(context.Context) (string, error) {
		calls.Add(1)
		<-release
		return "loaded", nil
	}
	const callers = 8
	results := make(chan string, callers)
	for i := 0; i < callers; i++ {
		go func() {
			v, err := c.GetOrLoad(context.Background(), "key", load)
			if err != nil {
				v = "error: " + err.Error()
			}
			results <- v
		}()
	}
	waitFor(t, "every caller to miss", func() bool { return c.Stats().Misses == callers })
	close(release)
	for i := 0; i < callers; i++ {
		if v := <-results; v != "loaded" {
			t.Errorf("caller got %q", v)
		}
	}
	if calls.Load() != 1 || c.Stats().Loads != 1 {
		t.Errorf("load called %d times, Loads %d", calls.Load(), c.Stats().Loads)
	}
	if v, ok := c.Get("key"); !ok || v != "loaded" {
		t.Errorf("not stored: %q %v", v, ok)
	}
}

func TestAcceptanceLoadErrorIsSharedAndNotCached(t *testing.T) {
	c, _ := newCache(t, 10, time.Hour)
	boom := errors.New("boom")
	release := make(chan struct{})
	var calls atomic.Int32
	failing := func(context.Context) (string, error) {
		calls.Add(1)
		<-release
		return "", boom
	}
	errs := make(chan error, 3)
	for i := 0; i < 3; i++ {
		go func() {
			_, err := c.GetOrLoad(context.Background(), "k", failing)
			errs <- err
		}()
	}
	waitFor(t, "three misses", func() bool { return c.Stats().Misses == 3 })
	close(release)
	for i := 0; i < 3; i++ {
		if err := <-errs; !errors.Is(err, boom) {
			t.Errorf("caller got %v", err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("failing load called %d times", calls.Load())
	}
	if _, ok := c.Get("k"); ok {
		t.Fatal("an error result was cached")
	}
	v, err := c.GetOrLoad(context.Background(), "k", func(context.Context) (string, error) { return "ok", nil })
	if err != nil || v != "ok" {
		t.Errorf("retry after error: %q %v", v, err)
	}
}

func TestAcceptanceCancelledWaiterReturnsAtOnce(t *testing.T) {
	c, _ := newCache(t, 10, time.Hour)
	release := make(chan struct{})
	slow := func(context.Context) (string, error) {
		<-release
		return "slow", nil
	}
	first := make(chan string, 1)
	go func() {
		v, _ := c.GetOrLoad(context.Background(), "k", slow)
		first <- v
	}()
	waitFor(t, "the first load to start", func() bool { return c.Stats().Loads == 1 })
	ctx, cancel := context.WithCancel(context.Background())
	waiter := make(chan error, 1)
	go func() {
		_, err := c.GetOrLoad(ctx, "k", slow)
		waiter <- err
	}()
	waitFor(t, "the second caller to wait", func() bool { return c.Stats().Misses == 2 })
	cancel()
	select {
	case err := <-waiter:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled waiter got %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled waiter kept waiting for the load")
	}
	close(release)
	if v := <-first; v != "slow" {
		t.Errorf("the first caller got %q", v)
	}
}

func TestAcceptanceDifferentKeysLoadInParallel(t *testing.T) {
	c, _ := newCache(t, 10, time.Hour)
	var started sync.WaitGroup
	started.Add(2)
	release := make(chan struct{})
	load := func(key string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) {
			started.Done()
			<-release
			return key, nil
		}
	}
	done := make(chan string, 2)
	for _, key := range []string{"x", "y"} {
		go func(key string) {
			v, _ := c.GetOrLoad(context.Background(), key, load(key))
			done <- v
		}(key)
	}
	finished := make(chan struct{})
	go func() {
		started.Wait()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(10 * time.Second):
		t.Fatal("the two loads did not run at the same time")
	}
	close(release)
	got := map[string]bool{<-done: true, <-done: true}
	if !got["x"] || !got["y"] {
		t.Errorf("results %v", got)
	}
}

func TestAcceptanceNoLockHeldDuringLoad(t *testing.T) {
	c, _ := newCache(t, 10, time.Hour)
	c.Set("other", "1")
	inside := make(chan struct{})
	release := make(chan struct{})
	go c.GetOrLoad(context.Background(), "k", func(context.Context) (string, error) {
		close(inside)
		<-release
		return "v", nil
	})
	<-inside
	done := make(chan struct{})
	go func() {
		c.Get("other")
		c.Set("another", "2")
		c.Len()
		c.Stats()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the cache was locked while a load ran")
	}
	close(release)
}

func TestAcceptanceManyGoroutines(t *testing.T) {
	c, _ := newCache(t, 50, time.Hour)
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				key := fmt.Sprint((g * i) % 80)
				switch i % 4 {
				case 0:
					c.Set(key, key)
				case 1:
					c.Get(key)
				case 2:
					c.GetOrLoad(context.Background(), key, func(context.Context) (string, error) { return key, nil })
				default:
					c.Delete(key)
				}
			}
		}(g)
	}
	wg.Wait()
	if n := c.Len(); n > 50 {
		t.Errorf("Len %d over capacity", n)
	}
}
