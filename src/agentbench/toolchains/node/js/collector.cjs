// AgentBench's second coverage collector for Node: the harness's own record of which code ran.
//
// Preloaded first (--require, before any module of the project) into the one process of a second
// run of a `node --test` command (--experimental-test-isolation=none: every test file in this
// process). It starts V8's precise block coverage through the inspector and, when the process exits,
// sends over the harness's channel, for every file:// script outside node_modules, its URL, the
// source V8 compiled (so the harness can tell a script named like a product file but compiled from
// other text) and its ranges, each line with the run's secret. The channel's descriptor, its inode
// and the secret come through a key pipe read once here and closed (see channel.py): nothing is in
// the environment. Everything used at exit is captured now, before product code can replace it, and
// the response objects are read by index and own property only (no method of theirs is called), so
// no code of the project is handed a reference to them. Other inspector sessions are refused.
'use strict';
const fs = require('node:fs');
const inspector = require('node:inspector');

const writeSync = fs.writeSync;
const stringify = JSON.stringify;
const parse = JSON.parse;
const apply = Reflect.apply;
const bufferFrom = Buffer.from;
const slice = String.prototype.slice;
const indexOf = String.prototype.indexOf;
const KEY_RECORD_BYTES = 256;

function readKey(value) {
  const parts = String(value).split(':');
  if (parts.length !== 2 || !/^\d+$/.test(parts[0])) return null;
  try {
    const keyFd = Number(parts[0]);
    const stat = fs.fstatSync(keyFd, { bigint: true });
    if (!stat.isFIFO() || String(stat.ino) !== parts[1]) return null;
    const buffer = Buffer.alloc(KEY_RECORD_BYTES);
    const read = fs.readSync(keyFd, buffer, 0, KEY_RECORD_BYTES, null);
    fs.closeSync(keyFd);
    const key = parse(buffer.subarray(0, read).toString());
    const fdText = String(key.fd);
    const stat2 = fs.fstatSync(Number(fdText), { bigint: true });
    if (!/^\d+$/.test(fdText) || !stat2.isFIFO() || String(stat2.ino) !== String(key.inode)) return null;
    return typeof key.nonce === 'string' ? { fd: Number(fdText), nonce: key.nonce } : null;
  } catch {
    return null;
  }
}

const key = readKey(process.env.AGENTBENCH_COVERAGE_KEY ?? '');
delete process.env.AGENTBENCH_COVERAGE_KEY;

function refuse() {
  throw new Error('AgentBench: the inspector is in use by the harness during coverage');
}

function closeDoors() {
  for (const name of ['node:inspector', 'node:inspector/promises']) {
    try {
      const mod = require(name);
      mod.Session.prototype.connect = refuse;
      mod.Session.prototype.connectToMainThread = refuse;
      mod.open = refuse;
    } catch { /* not in this Node */ }
  }
  const binding = process.binding;
  process.binding = function (name) {
    if (String(name) === 'inspector') refuse();
    return apply(binding, process, [name]);
  };
  process._debugProcess = refuse;
}

function send(text) {
  let offset = 0;
  const data = apply(bufferFrom, Buffer, [text, 'utf8']);
  while (offset < data.length) offset += writeSync(key.fd, data, offset);
}

function post(session, method, params) {
  let answer = null;
  apply(postMethod, session, [method, params, (error, result) => { answer = error ? null : result; }]);
  return answer;
}

function rangesOf(functions) {
  let text = '';
  for (let i = 0; i < functions.length; i++) {
    const ranges = functions[i].ranges;
    for (let j = 0; j < ranges.length; j++) {
      const r = ranges[j];
      text += (text === '' ? '' : ',') + '[' + (+r.startOffset) + ',' + (+r.endOffset) + ',' + (+r.count) + ']';
    }
  }
  return text;
}

function report(session) {
  const taken = post(session, 'Profiler.takePreciseCoverage', {});
  post(session, 'Debugger.enable', {});
  const scripts = taken === null ? [] : taken.result;
  for (let i = 0; i < scripts.length; i++) {
    const script = scripts[i];
    const url = script.url;
    if (typeof url !== 'string' || apply(slice, url, [0, 7]) !== 'file://' ||
        apply(indexOf, url, ['/node_modules/']) >= 0) continue;
    const source = post(session, 'Debugger.getScriptSource', { scriptId: script.scriptId });
    if (source === null || typeof source.scriptSource !== 'string') continue;
    send('{"nonce":' + stringify(key.nonce) + ',"e":"script","url":' + stringify(url) + ',"source":' +
         stringify(source.scriptSource) + ',"ranges":[' + rangesOf(script.functions) + ']}\n');
  }
  send('{"nonce":' + stringify(key.nonce) + ',"e":"done"}\n');
}

const postMethod = inspector.Session.prototype.post;
if (key !== null) {
  const session = new inspector.Session();
  session.connect();
  post(session, 'Profiler.enable', {});
  post(session, 'Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  closeDoors();
  process.on('exit', () => {
    try {
      report(session);
    } catch { /* nothing sent: no line counts as confirmed */ }
  });
}
