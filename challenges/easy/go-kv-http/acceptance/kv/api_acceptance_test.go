package kv_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"example.com/kvhttp/kv"
)

func server(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(kv.NewHandler(kv.NewStore()))
	t.Cleanup(srv.Close)
	return srv
}

func call(t *testing.T, srv *httptest.Server, method, path, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, string(data)
}

func TestAcceptancePutCreatesThenReplaces(t *testing.T) {
	srv := server(t)
	if resp, _ := call(t, srv, "PUT", "/keys/color", "red"); resp.StatusCode != 201 {
		t.Fatalf("first PUT: %d", resp.StatusCode)
	}
	if resp, _ := call(t, srv, "PUT", "/keys/color", "blue"); resp.StatusCode != 204 {
		t.Fatalf("second PUT: %d", resp.StatusCode)
	}
	resp, body := call(t, srv, "GET", "/keys/color", "")
	if resp.StatusCode != 200 || body != "blue" || resp.Header.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("GET: %d %q %q", resp.StatusCode, body, resp.Header.Get("Content-Type"))
	}
}

func TestAcceptanceBinaryAndEmptyValues(t *testing.T) {
	srv := server(t)
	call(t, srv, "PUT", "/keys/bin", "\x00\xff\x10")
	call(t, srv, "PUT", "/keys/empty", "")
	if _, body := call(t, srv, "GET", "/keys/bin", ""); body != "\x00\xff\x10" {
		t.Errorf("binary value %q", body)
	}
	if resp, body := call(t, srv, "GET", "/keys/empty", ""); resp.StatusCode != 200 || body != "" {
		t.Errorf("empty value: %d %q", resp.StatusCode, body)
	}
}

func TestAcceptanceMissingKeys(t *testing.T) {
	srv := server(t)
	for _, method := range []string{"GET", "DELETE"} {
		if resp, _ := call(t, srv, method, "/keys/nothing", ""); resp.StatusCode != 404 {
			t.Errorf("%s missing: %d", method, resp.StatusCode)
		}
	}
}

func TestAcceptanceDelete(t *testing.T) {
	srv := server(t)
	call(t, srv, "PUT", "/keys/tmp", "x")
	if resp, body := call(t, srv, "DELETE", "/keys/tmp", ""); resp.StatusCode != 204 || body != "" {
		t.Fatalf("DELETE: %d %q", resp.StatusCode, body)
	}
	if resp, _ := call(t, srv, "GET", "/keys/tmp", ""); resp.StatusCode != 404 {
		t.Fatalf("GET after DELETE: %d", resp.StatusCode)
	}
	if resp, _ := call(t, srv, "PUT", "/keys/tmp", "y"); resp.StatusCode != 201 {
		t.Fatalf("PUT after DELETE: %d", resp.StatusCode)
	}
}

func TestAcceptanceListSorted(t *testing.T) {
	srv := server(t)
	resp, body := call(t, srv, "GET", "/keys", "")
	var empty map[string][]string
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &empty) != nil || empty["keys"] == nil || len(empty["keys"]) != 0 {
		t.Fatalf("empty list: %d %q", resp.StatusCode, body)
	}
	for _, key := range []string{"pear", "Apple", "fig", "apple.v2", "_x"} {
		call(t, srv, "PUT", "/keys/"+key, "1")
	}
	resp, body = call(t, srv, "GET", "/keys", "")
	var got map[string][]string
	if err := json.Unmarshal([]byte(body), &got); err != nil || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("list: %v %q", err, resp.Header.Get("Content-Type"))
	}
	if fmt.Sprint(got["keys"]) != "[Apple _x apple.v2 fig pear]" {
		t.Errorf("keys %v", got["keys"])
	}
}

func TestAcceptanceKeyValidation(t *testing.T) {
	srv := server(t)
	for _, key := range []string{"has%20space", "a%2Fb", strings.Repeat("k", 65), "bad*char", "%C3%A9"} {
		if resp, _ := call(t, srv, "PUT", "/keys/"+key, "v"); resp.StatusCode != 400 {
			t.Errorf("PUT %q: %d", key, resp.StatusCode)
		}
	}
	if resp, _ := call(t, srv, "PUT", "/keys/"+strings.Repeat("k", 64), "v"); resp.StatusCode != 201 {
		t.Errorf("64-character key: %d", resp.StatusCode)
	}
}

func TestAcceptanceMethodNotAllowed(t *testing.T) {
	srv := server(t)
	resp, _ := call(t, srv, "POST", "/keys/k", "v")
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, PUT, DELETE" {
		t.Errorf("POST /keys/k: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	resp, _ = call(t, srv, "PUT", "/keys", "v")
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET" {
		t.Errorf("PUT /keys: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

func TestAcceptanceUnknownPaths(t *testing.T) {
	srv := server(t)
	for _, path := range []string{"/", "/key/a", "/keysx", "/v1/keys/a"} {
		if resp, _ := call(t, srv, "GET", path, ""); resp.StatusCode != 404 {
			t.Errorf("GET %s: %d", path, resp.StatusCode)
		}
	}
}

func TestAcceptanceValueSizeLimit(t *testing.T) {
	srv := server(t)
	if resp, _ := call(t, srv, "PUT", "/keys/big", strings.Repeat("a", 1<<20)); resp.StatusCode != 201 {
		t.Errorf("1 MiB value: %d", resp.StatusCode)
	}
	if resp, _ := call(t, srv, "PUT", "/keys/huge", strings.Repeat("a", 1<<20+1)); resp.StatusCode != 413 {
		t.Errorf("1 MiB + 1: %d", resp.StatusCode)
	}
	if resp, _ := call(t, srv, "GET", "/keys/huge", ""); resp.StatusCode != 404 {
		t.Errorf("a rejected value was stored: %d", resp.StatusCode)
	}
}

func TestAcceptanceConcurrentClients(t *testing.T) {
	srv := server(t)
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			key := fmt.Sprintf("/keys/k%02d", i)
			call(t, srv, "PUT", key, fmt.Sprint(i))
			call(t, srv, "GET", key, "")
			call(t, srv, "GET", "/keys", "")
		}(i)
	}
	wg.Wait()
	_, body := call(t, srv, "GET", "/keys", "")
	var got map[string][]string
	_ = json.Unmarshal([]byte(body), &got)
	if len(got["keys"]) != 40 {
		t.Fatalf("%d keys after concurrent PUTs", len(got["keys"]))
	}
}
