package kv

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func do(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	return rec
}

func TestHandlerCRUD(t *testing.T) {
	h := NewHandler(NewStore())
	steps := []struct {
		method, path, body string
		code               int
		out                string
	}{
		{"PUT", "/keys/a", "one", 201, ""},
		{"PUT", "/keys/a", "two", 204, ""},
		{"GET", "/keys/a", "", 200, "two"},
		{"GET", "/keys", "", 200, "{\"keys\":[\"a\"]}\n"},
		{"DELETE", "/keys/a", "", 204, ""},
		{"DELETE", "/keys/a", "", 404, "no such key\n"},
		{"GET", "/keys/a", "", 404, "no such key\n"},
		{"GET", "/keys/bad%20key", "", 400, "invalid key\n"},
		{"GET", "/other", "", 404, "not found\n"},
	}
	for _, s := range steps {
		rec := do(h, s.method, s.path, s.body)
		if rec.Code != s.code || rec.Body.String() != s.out {
			t.Errorf("%s %s: %d %q", s.method, s.path, rec.Code, rec.Body.String())
		}
	}
}

func TestHandlerMethodsAndLimits(t *testing.T) {
	h := NewHandler(NewStore())
	if rec := do(h, "POST", "/keys/a", ""); rec.Code != 405 || rec.Header().Get("Allow") != "GET, PUT, DELETE" {
		t.Errorf("POST key: %d %q", rec.Code, rec.Header().Get("Allow"))
	}
	if rec := do(h, "DELETE", "/keys", ""); rec.Code != 405 || rec.Header().Get("Allow") != "GET" {
		t.Errorf("DELETE keys: %d", rec.Code)
	}
	if rec := do(h, "PUT", "/keys/big", strings.Repeat("x", MaxValueBytes+1)); rec.Code != 413 {
		t.Errorf("large PUT: %d", rec.Code)
	}
	if rec := do(h, "GET", "/keys", ""); rec.Body.String() != "{\"keys\":[]}\n" {
		t.Errorf("empty list: %q", rec.Body.String())
	}
}
