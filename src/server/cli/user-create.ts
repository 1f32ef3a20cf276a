import { ConfigError, loadConfig } from "../platform/config/config.ts";
import { readEnvFile } from "../platform/config/env-file.ts";
import { runCommand } from "./commands.ts";

/**
 * `user:create` from the sources (tests run it before any build); operators run the same command
 * through the server's entry, `npm run user:create -- …` (commands.ts).
 */
async function main(): Promise<number> {
  readEnvFile();
  return runCommand("user:create", process.argv.slice(2), loadConfig());
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const lines = err instanceof ConfigError ? err.problems.map((line) => `Configuration error: ${line}`) : [err instanceof Error ? err.message : String(err)];
    for (const line of lines) console.error(`user:create: ${line}`);
    process.exit(1);
  },
);
