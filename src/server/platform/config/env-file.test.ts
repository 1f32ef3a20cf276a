import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "./config.ts";
import { readEnvFile } from "./env-file.ts";
import { SECRET_VARIABLES } from "./secret-files.ts";

const EXAMPLE = fileURLToPath(new URL("../../../../.env.example", import.meta.url));

describe(".env (read by the server and every command before the configuration)", () => {
  const dir = mkdtempSync(join(tmpdir(), "hki-env-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fills the variables the environment does not set, and never overrides one it does", () => {
    const path = join(dir, ".env");
    writeFileSync(path, ["# comment", "PORT=4100", "export LOG_LEVEL=warn", 'MAIL_FROM="Panel <panel@example.com>"', "HOST=0.0.0.0", "EMPTY="].join("\n"));
    const env: Record<string, string | undefined> = { HOST: "127.0.0.2" };
    expect(readEnvFile(path, env).sort()).toEqual(["EMPTY", "LOG_LEVEL", "MAIL_FROM", "PORT"]);
    expect(loadConfig(env)).toMatchObject({ port: 4100, host: "127.0.0.2", logLevel: "warn", mailFrom: "Panel <panel@example.com>" });
  });

  it("is optional", () => {
    const env: Record<string, string | undefined> = {};
    expect(readEnvFile(join(dir, "none.env"), env)).toEqual([]);
    expect(env).toEqual({});
  });

  it(".env.example names every variable the configuration reads, and only those, each under a comment", () => {
    const lines = readFileSync(EXAMPLE, "utf8").split("\n");
    const named = lines.flatMap((line, index) => {
      const name = /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
      return name
        ? [
            {
              name,
              explained:
                lines
                  .slice(0, index)
                  .reverse()
                  .find((l) => !/^[A-Z]/.test(l))
                  ?.startsWith("#") ?? false,
            },
          ]
        : [];
    });
    expect(named.map((n) => n.name).sort()).toEqual([...CONFIG_VARIABLES].sort());
    expect(named.filter((n) => !n.explained)).toEqual([]);
    for (const name of SECRET_VARIABLES) expect(readFileSync(EXAMPLE, "utf8")).toContain(name);
  });

  it("copied to .env as it is, .env.example changes nothing: its values are the defaults", () => {
    const env: Record<string, string | undefined> = {};
    readEnvFile(EXAMPLE, env);
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });
});
