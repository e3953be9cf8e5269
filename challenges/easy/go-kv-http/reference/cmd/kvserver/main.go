// Command kvserver serves the key-value API: kvserver -addr 127.0.0.1:8080
package main

import (
	"flag"
	"log"
	"net/http"

	"example.com/kvhttp/kv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	log.Printf("listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, kv.NewHandler(kv.NewStore())))
}
