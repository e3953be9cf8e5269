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

function post(body: unknown): Promise<Response> {
  return fetch(`${base}/links`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
}

test("create, read, redirect, count, delete", async () => {
  const created = await post({ url: "https://example.org/page", code: "ex1" });
  assert.equal(created.status, 201);
  assert.deepEqual(await created.json(), { code: "ex1", url: "https://example.org/page", hits: 0 });
  const redirect = await fetch(`${base}/ex1`, { redirect: "manual" });
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get("location"), "https://example.org/page");
  assert.equal((await (await fetch(`${base}/links/ex1`)).json()).hits, 1);
  assert.equal((await fetch(`${base}/links/ex1`, { method: "DELETE" })).status, 204);
  assert.equal((await fetch(`${base}/links/ex1`)).status, 404);
  assert.equal((await fetch(`${base}/links/ex1`, { method: "DELETE" })).status, 404);
});

test("generated codes and listing", async () => {
  const body = await (await post({ url: "http://a.example/" })).json();
  assert.match(body.code, /^[A-Za-z0-9]{7}$/);
  const list = await (await fetch(`${base}/links`)).json();
  assert.ok(list.links.some((l: { code: string }) => l.code === body.code));
});

test("validation", async () => {
  assert.equal((await post({ url: "ftp://x" })).status, 400);
  assert.equal((await post({ url: "not a url" })).status, 400);
  assert.equal((await post({ url: 5 })).status, 400);
  assert.equal((await post({ url: "http://x", code: "a" })).status, 400);
  assert.equal((await post("[1]")).status, 400);
  assert.equal((await post("{")).status, 400);
  assert.equal((await post("x".repeat(70000))).status, 413);
  await post({ url: "http://x", code: "dup" });
  assert.equal((await post({ url: "http://y", code: "dup" })).status, 409);
});

test("unknown routes and methods", async () => {
  assert.equal((await fetch(`${base}/nope`, { redirect: "manual" })).status, 404);
  assert.equal((await fetch(`${base}/a/b/c`)).status, 404);
  assert.equal((await fetch(`${base}/`)).status, 404);
  assert.equal((await fetch(`${base}/links`, { method: "PUT" })).status, 405);
  assert.equal((await fetch(`${base}/links/x`, { method: "POST" })).status, 405);
  assert.equal((await fetch(`${base}/code`, { method: "DELETE" })).status, 405);
});
