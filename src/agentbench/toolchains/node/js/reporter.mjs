// AgentBench's node:test reporter: streams every test's outcome to the harness as it finishes.
//
// Loaded by the harness through --test-reporter (copied under a random name into a folder the
// harness just made), in the `node --test` process only: a test file's child process reports to it
// through node's own serializer, and never gets the pipe (libuv closes every descriptor but stdio in
// the processes node starts). It writes one JSON line per event to a pipe the harness opened before the run:
// its descriptor number, the pipe's inode and a secret come in one record read from a second pipe
// whose write end the harness already closed (AGENTBENCH_REPORTER_KEY names its descriptor and inode;
// the descriptor is closed once read), so none of them is ever in the environment, where
// /proc/<pid>/environ would keep it. A descriptor that is not that very pipe (e.g. a number reused
// after a launcher closed it) is never read or written.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const KEY_RECORD_BYTES = 256;

function readKey(value) {
  const [fdText, inodeText] = value.split(':');
  if (!/^\d+$/.test(fdText ?? '')) return {};
  const keyFd = Number(fdText);
  try {
    const stat = fs.fstatSync(keyFd, { bigint: true });
    if (!stat.isFIFO() || String(stat.ino) !== inodeText) return {};
    const buffer = Buffer.alloc(KEY_RECORD_BYTES);
    const read = fs.readSync(keyFd, buffer, 0, KEY_RECORD_BYTES, null);
    fs.closeSync(keyFd);
    const key = JSON.parse(buffer.subarray(0, read).toString());
    return key !== null && typeof key === 'object' ? key : {};
  } catch {
    return {};
  }
}

const key = readKey(process.env.AGENTBENCH_REPORTER_KEY ?? '');
delete process.env.AGENTBENCH_REPORTER_KEY;
const fdText = String(key.fd ?? '');
const nonce = typeof key.nonce === 'string' ? key.nonce : '';
const inode = String(key.inode ?? '');

function channel() {
  if (!/^\d+$/.test(fdText)) return null;
  try {
    const stat = fs.fstatSync(Number(fdText), { bigint: true });
    return stat.isFIFO() && String(stat.ino) === inode ? Number(fdText) : null;
  } catch {
    return null;
  }
}

const fd = channel();

function send(event) {
  if (fd === null) return;
  const data = Buffer.from(JSON.stringify({ ...event, nonce, pid: process.pid }) + '\n');
  let offset = 0;
  while (offset < data.length) offset += fs.writeSync(fd, data, offset);
}

function testEvent(event) {
  const data = event.data ?? {};
  const details = data.details ?? {};
  const file = typeof data.file === 'string' ? data.file : '';
  const wholeFile = data.nesting === 0 && file !== '' &&
    (data.name === file || data.name === path.relative(process.cwd(), file));
  return {
    e: 'test', outcome: event.type === 'test:pass' ? 'pass' : 'fail', name: String(data.name),
    file, line: data.line ?? 0, column: data.column ?? 0, nesting: data.nesting ?? 0,
    type: details.type ?? 'test', skip: data.skip !== undefined && data.skip !== false,
    todo: data.todo !== undefined && data.todo !== false, whole_file: wholeFile,
    failure: details.error?.failureType ?? null,
  };
}

send({ e: 'hello', file: fileURLToPath(import.meta.url), node: process.version, cwd: process.cwd() });

export default async function* reporter(source) {
  for await (const event of source) {
    if (event.type === 'test:pass' || event.type === 'test:fail') {
      send(testEvent(event));
    } else if (event.type === 'test:summary' && event.data?.file === undefined) {
      send({ e: 'summary', counts: event.data?.counts ?? null, success: event.data?.success ?? null });
    }
  }
  send({ e: 'finish' });
}
