import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createServer } from "../src/app.ts";

let server: Server;
let base: string;

before(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function create(body: unknown): Promise<Response> {
  return fetch(`${base}/links`, { method: "POST", headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body) });
}

test("POST /links with a code: 201, JSON body, hits 0", async () => {
  const response = await create({ url: "https://example.com/docs?q=1", code: "docs_1" });
  assert.equal(response.status, 201);
  assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  assert.deepEqual(await response.json(), { code: "docs_1", url: "https://example.com/docs?q=1", hits: 0 });
});

test("POST /links without a code makes a 7-character code", async () => {
  const codes = new Set<string>();
  for (let i = 0; i < 5; i++) {
    const body = await (await create({ url: `http://example.com/${i}` })).json();
    assert.match(body.code, /^[A-Za-z0-9]{7}$/);
    codes.add(body.code);
  }
  assert.equal(codes.size, 5);
});

test("GET /<code> redirects and counts each hit", async () => {
  await create({ url: "http://example.com/target", code: "go-there" });
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${base}/go-there`, { redirect: "manual" });
    assert.equal(response.status, 302);
    assert.equal(response.headers.get("location"), "http://example.com/target");
  }
  const info = await fetch(`${base}/links/go-there`);
  assert.equal(info.status, 200);
  assert.deepEqual(await info.json(), { code: "go-there", url: "http://example.com/target", hits: 3 });
});

test("unknown codes are 404 with an error body", async () => {
  for (const [path, method] of [["/links/missing", "GET"], ["/links/missing", "DELETE"], ["/missing", "GET"]]) {
    const response = await fetch(`${base}${path}`, { method, redirect: "manual" });
    assert.equal(response.status, 404, `${method} ${path}`);
    assert.equal(typeof (await response.json()).error, "string");
  }
});

test("DELETE removes the link: 204 with an empty body", async () => {
  await create({ url: "http://example.com/", code: "gone" });
  const response = await fetch(`${base}/links/gone`, { method: "DELETE" });
  assert.equal(response.status, 204);
  assert.equal(await response.text(), "");
  assert.equal((await fetch(`${base}/gone`, { redirect: "manual" })).status, 404);
});

test("a code in use is 409", async () => {
  assert.equal((await create({ url: "http://example.com/1", code: "twice" })).status, 201);
  const again = await create({ url: "http://example.com/2", code: "twice" });
  assert.equal(again.status, 409);
  assert.equal(typeof (await again.json()).error, "string");
  assert.equal((await (await fetch(`${base}/links/twice`)).json()).url, "http://example.com/1");
});

test("invalid URLs are 400", async () => {
  for (const url of ["example.com", "/relative", "ftp://example.com/", "javascript:alert(1)", "mailto:a@b.c", "", 42, null]) {
    const response = await create({ url });
    assert.equal(response.status, 400, String(url));
  }
  assert.equal((await create({})).status, 400);
});

test("invalid codes are 400", async () => {
  for (const code of ["ab", "x".repeat(33), "has space", "slash/", "dot.", 123]) {
    assert.equal((await create({ url: "http://example.com/", code })).status, 400, String(code));
  }
  assert.equal((await create({ url: "http://example.com/", code: "a".repeat(32) })).status, 201);
});

test("bodies that are not a JSON object are 400", async () => {
  for (const body of ["", "not json", "[]", "\"string\"", "null", "{\"url\": "]) {
    assert.equal((await create(body)).status, 400, body);
  }
});

test("a body over 64 KiB is 413", async () => {
  const response = await create({ url: `http://example.com/${"a".repeat(70 * 1024)}` });
  assert.equal(response.status, 413);
});

test("GET /links lists every link sorted by code", async () => {
  await create({ url: "http://example.com/z", code: "zzz-last" });
  await create({ url: "http://example.com/a", code: "AAA-first" });
  const body = await (await fetch(`${base}/links`)).json();
  const codes = body.links.map((l: { code: string }) => l.code);
  assert.deepEqual(codes, [...codes].sort());
  assert.deepEqual(body.links.find((l: { code: string }) => l.code === "zzz-last"),
    { code: "zzz-last", url: "http://example.com/z", hits: 0 });
});

test("wrong methods are 405, unknown paths 404", async () => {
  await create({ url: "http://example.com/", code: "meth" });
  assert.equal((await fetch(`${base}/links`, { method: "DELETE" })).status, 405);
  assert.equal((await fetch(`${base}/links/meth`, { method: "PUT", body: "{}" })).status, 405);
  assert.equal((await fetch(`${base}/meth`, { method: "POST", body: "{}" })).status, 405);
  assert.equal((await fetch(`${base}/links/meth/extra`)).status, 404);
  assert.equal((await fetch(`${base}/`)).status, 404);
});
