/** `node src/cli.ts [FILE]`: set the cells of `REF INPUT` lines, then print every non-empty cell. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Sheet } from "./sheet.ts";

/** Run on the given text; returns the exit status. */
export function run(text: string, out: (line: string) => void, err: (line: string) => void): number {
  const sheet = new Sheet();
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.trim() === "") {
      continue;
    }
    const space = line.indexOf(" ");
    const [ref, input] = space < 0 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)];
    try {
      sheet.set(ref, input);
    } catch (error) {
      err(`error: line ${index + 1}: ${(error as Error).message}`);
      return 2;
    }
  }
  for (const ref of sheet.filled()) {
    out(`${ref}\t${sheet.display(ref)}`);
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  const text = readFileSync(file ?? 0, "utf8");
  process.exitCode = run(text, (line) => console.log(line), (line) => console.error(line));
}
