// Command lrudemo shows which keys an LRU cache of two keeps.
package main

import (
	"fmt"
	"strings"

	"example.com/lrucache/lru"
)

func main() {
	c := lru.New[string, int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	c.Get("a")
	c.Put("c", 3)
	fmt.Println(strings.Join(c.Keys(), " "))
}
