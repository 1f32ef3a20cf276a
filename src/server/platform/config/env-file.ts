import { existsSync, readFileSync } from "node:fs";
import { parseEnv } from "node:util";

/** The file `npm start`, the server bundle and every command read before their configuration. */
export const ENV_FILE = ".env";

/**
 * Reads `KEY=value` lines from an env file (node's own format: `#` comments, `export` prefixes,
 * quoted and multi-line values; `--env-file` reads the same) into `env`, when the file exists.
 * A variable already in the environment wins over the file, as with node's `--env-file`, so a
 * value set by the service manager or `docker run -e` is never overridden by a forgotten file.
 * Returns the names taken from the file (their values are never printed: they may be secrets).
 */
export function readEnvFile(path: string = ENV_FILE, env: Record<string, string | undefined> = process.env): string[] {
  if (!existsSync(path)) return [];
  const values = parseEnv(readFileSync(path, "utf8"));
  const taken: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || env[name] !== undefined) continue;
    env[name] = value;
    taken.push(name);
  }
  return taken;
}
