// Parses every JavaScript/TypeScript file named on stdin (JSON list) the way Node would run it
// (TypeScript types stripped), as a module and, failing that, as a script; exits 1 naming each file
// that parses as neither. Nothing is run. Needs --experimental-vm-modules.
import fs from 'node:fs';
import vm from 'node:vm';
import { stripTypeScriptTypes } from 'node:module';

function parses(file) {
  let text = fs.readFileSync(file, 'utf8');
  if (/\.(ts|mts|cts)$/.test(file)) text = stripTypeScriptTypes(text, { mode: 'strip' });
  try {
    new vm.SourceTextModule(text, { identifier: file });
    return null;
  } catch (moduleError) {
    try {
      new vm.Script(text, { filename: file });
      return null;
    } catch {
      return moduleError;
    }
  }
}

let failed = 0;
for (const file of JSON.parse(fs.readFileSync(0, 'utf8'))) {
  let problem;
  try {
    problem = parses(file);
  } catch (error) {
    problem = error;
  }
  if (problem) {
    failed++;
    process.stdout.write(`${file}: ${problem && problem.message}\n`);
  }
}
process.stdout.write(`${failed} of the files do not parse\n`);
process.exit(failed ? 1 : 0);
