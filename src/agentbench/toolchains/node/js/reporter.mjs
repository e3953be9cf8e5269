// AgentBench's node:test reporter: streams every test's outcome to the harness as it finishes.
//
// Loaded by the harness through --test-reporter (copied under a random name into a folder the
// harness just made). It writes one JSON line per event to a pipe the harness opened before the run:
// its descriptor number, the pipe's inode and a secret come in the environment and are removed here,
// before the runner starts any test process. A descriptor that is not that very pipe (e.g. a number
// reused after a launcher closed it) is never written to.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fdText = process.env.AGENTBENCH_REPORTER_FD ?? '';
const nonce = process.env.AGENTBENCH_REPORTER_NONCE ?? '';
const inode = process.env.AGENTBENCH_REPORTER_INODE ?? '';
delete process.env.AGENTBENCH_REPORTER_FD;
delete process.env.AGENTBENCH_REPORTER_NONCE;
delete process.env.AGENTBENCH_REPORTER_INODE;

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
