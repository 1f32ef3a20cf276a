import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { createApp } from "../app.ts";
import type { AppDeps, AppEnv } from "../platform/request/app-env.ts";
import { systemClock } from "../platform/clock.ts";
import { loadConfig } from "../platform/config/config.ts";
import { createRuntime } from "../runtime.ts";
import { TEST_BETA_PASSWORD, TEST_PASSWORD } from "./test-app.ts";

export const RELIABILITY_ADMIN_EMAIL = "reliability-admin@hki.global";

/** The environment a real server (or an in-process app) of these suites starts with. */
export function reliabilityEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    BETA_PASSWORD: TEST_BETA_PASSWORD,
    ADMIN_EMAIL: RELIABILITY_ADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_PASSWORD,
    STOREFRONT_URL: "http://store.test",
    SEED_DEMO: "false",
    // The suites keep everything a server prints in memory: no access line per request.
    LOG_LEVEL: "warn",
    ...extra,
  };
}

export interface FileApp {
  app: Hono<AppEnv>;
  deps: AppDeps;
  dbPath: string;
  adminHeaders: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The whole app in-process over a SQLite FILE (not :memory:), so a second connection can take its
 * locks, with the real system clock, signed in as the first admin through the real sign-in route.
 */
export async function openFileApp(options: { seedDemo?: boolean; staticRoot?: string } = {}): Promise<FileApp> {
  const dir = mkdtempSync(join(tmpdir(), "hki-reliability-"));
  const dbPath = join(dir, "admin.sqlite");
  const config = loadConfig(reliabilityEnv(`sqlite:${dbPath}`, { SEED_DEMO: options.seedDemo ? "true" : "false" }));
  const deps = await createRuntime(config, { clock: systemClock, announce: () => undefined, ...(options.staticRoot ? { staticRoot: options.staticRoot } : {}) });
  const app = createApp(deps);
  const res = await app.request("/api/auth/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: RELIABILITY_ADMIN_EMAIL, password: TEST_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return {
    app,
    deps,
    dbPath,
    adminHeaders: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    async close() {
      await deps.database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
