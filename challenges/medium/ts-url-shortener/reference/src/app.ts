/** The HTTP API of the URL shortener (see the README). */
import http from "node:http";
import { LinkStore } from "./store.ts";

const MAX_BODY = 64 * 1024;
const CODE = /^[A-Za-z0-9_-]{3,32}$/;

class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

interface Reply {
  status: number;
  body?: unknown;
  location?: string;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) {
        chunks.push(chunk);
      }
    });
    request.on("end", () => (size > MAX_BODY ? reject(new HttpError(413, "body too large"))
      : resolve(Buffer.concat(chunks).toString("utf8"))));
    request.on("error", reject);
  });
}

function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, "body is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

function checkUrl(value: unknown): string {
  if (typeof value !== "string") {
    throw new HttpError(400, "url must be a string");
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HttpError(400, "url is not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new HttpError(400, "url must use http or https");
  }
  return value;
}

async function create(store: LinkStore, request: http.IncomingMessage): Promise<Reply> {
  const body = parseObject(await readBody(request));
  const url = checkUrl(body.url);
  if (body.code !== undefined && (typeof body.code !== "string" || !CODE.test(body.code))) {
    throw new HttpError(400, "code must match ^[A-Za-z0-9_-]{3,32}$");
  }
  const code = (body.code as string | undefined) ?? store.freeCode();
  if (!store.add(code, url)) {
    throw new HttpError(409, `code ${code} is taken`);
  }
  return { status: 201, body: store.get(code) };
}

function found<T>(value: T | undefined, code: string): T {
  if (value === undefined) {
    throw new HttpError(404, `no link ${code}`);
  }
  return value;
}

function linkRoute(store: LinkStore, method: string, code: string): Reply {
  if (method === "GET") {
    return { status: 200, body: found(store.get(code), code) };
  }
  if (method === "DELETE") {
    found(store.delete(code) || undefined, code);
    return { status: 204 };
  }
  throw new HttpError(405, `method ${method} not allowed`);
}

async function route(store: LinkStore, request: http.IncomingMessage): Promise<Reply> {
  const method = request.method ?? "GET";
  const path = new URL(request.url ?? "/", "http://localhost").pathname;
  const parts = path.split("/").slice(1).map(decodeURIComponent);
  if (parts.length === 1 && parts[0] === "links") {
    if (method === "POST") {
      return create(store, request);
    }
    if (method === "GET") {
      return { status: 200, body: { links: store.list() } };
    }
    throw new HttpError(405, `method ${method} not allowed`);
  }
  if (parts.length === 2 && parts[0] === "links") {
    return linkRoute(store, method, parts[1]);
  }
  if (parts.length === 1 && parts[0] !== "") {
    if (method !== "GET") {
      throw new HttpError(405, `method ${method} not allowed`);
    }
    return { status: 302, location: found(store.hit(parts[0]), parts[0]) };
  }
  throw new HttpError(404, `no route ${path}`);
}

function send(response: http.ServerResponse, reply: Reply): void {
  if (reply.location !== undefined) {
    response.writeHead(reply.status, { Location: reply.location }).end();
  } else if (reply.body === undefined) {
    response.writeHead(reply.status).end();
  } else {
    response.writeHead(reply.status, { "Content-Type": "application/json" }).end(JSON.stringify(reply.body));
  }
}

/** The service, not yet listening. */
export function createServer(options: { dataFile?: string } = {}): http.Server {
  const store = new LinkStore(options.dataFile);
  return http.createServer((request, response) => {
    route(store, request).then((reply) => send(response, reply), (error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      send(response, { status, body: { error: (error as Error).message } });
    });
  });
}
