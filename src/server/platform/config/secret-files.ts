import { readFileSync } from "node:fs";

/**
 * The variables that may instead name a file holding their value, as `NAME_FILE=/run/secrets/…`
 * (Docker and Kubernetes secrets), so a secret need not sit in the environment, where `docker
 * inspect` and every child process can read it.
 */
export const SECRET_VARIABLES = [
  "DATABASE_URL",
  "DATABASE_PASSWORD",
  "BETA_PASSWORD",
  "ADMIN_PASSWORD",
  "CLERK_SECRET_KEY",
  "STRIPE_SECRET_KEY",
  "SMTP_URL",
  "METRICS_TOKEN",
  "WEBHOOK_SECRETS_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "CLERK_WEBHOOK_SIGNING_SECRET",
] as const;

/**
 * `env` with each `NAME_FILE` replaced by the content of the file it names, read as `NAME`. The
 * file's final line break is dropped (`echo secret > file` writes one); nothing else is trimmed, so
 * a password may end in spaces. Setting both `NAME` and `NAME_FILE` is a mistake, as is a file that
 * cannot be read or is empty: each adds one line to `problems`, naming the variable and the path,
 * never the content.
 */
export function readSecretFiles(
  env: Record<string, string | undefined>,
  problems: string[],
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of SECRET_VARIABLES) {
    const fileVariable = `${name}_FILE`;
    const path = env[fileVariable];
    delete out[fileVariable];
    if (path === undefined || path === "") continue;
    if (env[name] !== undefined && env[name] !== "") {
      problems.push(`Invalid ${fileVariable}: set ${name} or ${fileVariable}, not both`);
      continue;
    }
    let content: string;
    try {
      content = readFile(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
      problems.push(`Invalid ${fileVariable}: cannot read ${path} (${code})`);
      continue;
    }
    const value = content.replace(/\r?\n$/, "");
    if (value === "") {
      problems.push(`Invalid ${fileVariable}: ${path} is empty`);
      continue;
    }
    out[name] = value;
  }
  return out;
}
