/** `node src/main.ts [--port N] [--data FILE]`: serve the API on 127.0.0.1. */
import { createServer } from "./app.ts";

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

const args = process.argv.slice(2);
const port = Number(option(args, "--port") ?? 8080);
createServer({ dataFile: option(args, "--data") }).listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${port}`);
});
