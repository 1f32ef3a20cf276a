import { Hono } from "hono";
import type { PublicConfig } from "../../contract/auth.ts";
import type { HealthResponse } from "../../contract/common.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";

/** Routes anyone may call: liveness and the non-secret facts the web app needs before sign-in. */
export function publicRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/health", async (c) => {
    // A trivial query proves the database answers, not just the process.
    await deps.database.db.selectFrom("counters").select("name").limit(1).execute();
    const body: HealthResponse = { status: "ok", database: deps.database.kind, time: deps.clock.now().toISOString() };
    return c.json(body);
  });

  app.get("/config", (c) => {
    const body: PublicConfig = { storefrontUrl: deps.config.storefrontUrl, authProviderName: deps.auth.displayName };
    return c.json(body);
  });

  return app;
}
