import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createServer } from "../src/app.ts";

async function start(dataFile?: string): Promise<{ server: Server; base: string }> {
  const server = createServer(dataFile === undefined ? {} : { dataFile });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

test("links and hit counts survive a restart with the same data file", async () => {
  const folder = mkdtempSync(join(tmpdir(), "shortener-"));
  const file = join(folder, "links.json");
  const first = await start(file);
  await fetch(`${first.base}/links`, { method: "POST", body: JSON.stringify({ url: "https://example.net/", code: "keep" }) });
  await fetch(`${first.base}/links`, { method: "POST", body: JSON.stringify({ url: "https://example.net/2", code: "drop" }) });
  await fetch(`${first.base}/keep`, { redirect: "manual" });
  await fetch(`${first.base}/keep`, { redirect: "manual" });
  await fetch(`${first.base}/links/drop`, { method: "DELETE" });
  await stop(first.server);

  const second = await start(file);
  try {
    assert.deepEqual(await (await fetch(`${second.base}/links/keep`)).json(), { code: "keep", url: "https://example.net/", hits: 2 });
    assert.equal((await fetch(`${second.base}/links/drop`)).status, 404);
    assert.equal((await fetch(`${second.base}/links`, { method: "POST", body: JSON.stringify({ url: "http://x.example/", code: "keep" }) })).status, 409);
  } finally {
    await stop(second.server);
  }
  assert.deepEqual(readdirSync(folder), ["links.json"]);
});

test("servers without a data file share nothing", async () => {
  const a = await start();
  const b = await start();
  try {
    await fetch(`${a.base}/links`, { method: "POST", body: JSON.stringify({ url: "https://example.net/", code: "only-a" }) });
    assert.equal((await fetch(`${b.base}/links/only-a`)).status, 404);
  } finally {
    await stop(a.server);
    await stop(b.server);
  }
});

test("a new data file starts empty", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "shortener-")), "fresh.json");
  const { server, base } = await start(file);
  try {
    assert.deepEqual(await (await fetch(`${base}/links`)).json(), { links: [] });
  } finally {
    await stop(server);
  }
});
