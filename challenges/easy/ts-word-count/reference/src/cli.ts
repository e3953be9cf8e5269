/** Command line: `node src/cli.ts [--top N] [--min-length L] [FILE...]`. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { countWords, topWords } from "./wordcount.ts";

export class UsageError extends Error {}

export interface Options {
  top: number;
  minLength: number;
  files: string[];
}

function count(flag: string, value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value)) {
    throw new UsageError(`${flag} needs a non-negative integer, got ${value ?? "nothing"}`);
  }
  return Number(value);
}

/** Parse the arguments (UsageError on anything unknown or malformed). */
export function parseArgs(args: string[]): Options {
  const options: Options = { top: 10, minLength: 1, files: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--top") {
      options.top = count(arg, args[++i]);
    } else if (arg === "--min-length") {
      options.minLength = count(arg, args[++i]);
    } else if (arg.startsWith("-") && arg !== "-") {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      options.files.push(arg);
    }
  }
  return options;
}

function readAll(files: string[], stdin: () => string): string {
  if (files.length === 0) {
    return stdin();
  }
  return files.map((file) => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      throw new Error(`cannot read ${file}`);
    }
  }).join("\n");
}

/** Run the command; returns the exit status. */
export function main(args: string[], out: (line: string) => void, err: (line: string) => void,
  stdin: () => string = () => readFileSync(0, "utf8")): number {
  try {
    const options = parseArgs(args);
    const counts = countWords(readAll(options.files, stdin), { minLength: options.minLength });
    for (const [word, n] of topWords(counts, options.top)) {
      out(`${n}\t${word}`);
    }
    return 0;
  } catch (error) {
    err(`error: ${(error as Error).message}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2), (line) => console.log(line), (line) => console.error(line));
}
