import { Hono } from "hono";
import type { DebugResponse } from "../../contract/debug.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import type { DatabaseKind } from "../db/connect.ts";
import { StripeHealthCheck, secretPrefix } from "../payments/stripe-check.ts";

/** Truthful names of the engines this build runs on (docs/decisions: database label on the health page). */
export function databaseLabel(kind: DatabaseKind): string {
  return kind === "sqlite" ? "SQLite (embedded)" : "PostgreSQL";
}

/** GET /api/debug/admin: the health page's facts, from the caller's session, the config and a live Stripe check. */
export function debugAdminRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;
  // One checker per app: its cache is what keeps a refreshing health page from hammering Stripe.
  const stripe = new StripeHealthCheck({
    secretKey: config.stripeSecretKey,
    apiBase: config.stripeApiBase,
    clock: deps.clock,
    fetchImpl: deps.fetchImpl,
  });

  app.get("/debug/admin", async (c) => {
    // The admin guard ran for /api/debug, so the user is present.
    const user = c.get("user")!;
    const [payment, localUser] = await Promise.all([
      stripe.check(),
      deps.database.db.selectFrom("users").select("role").where("id", "=", user.id).executeTakeFirst(),
    ]);
    const body: DebugResponse = {
      userId: user.id,
      email: user.email,
      isAdmin: user.isAdmin,
      jwtRole: user.role,
      clerkSecretKeyExists: config.clerkSecretKey !== undefined,
      clerkKeyPrefix: secretPrefix(config.clerkSecretKey),
      stripeSecretKeyExists: config.stripeSecretKey !== undefined,
      stripeKeyPrefix: secretPrefix(config.stripeSecretKey),
      stripeWorks: payment.works,
      stripeError: payment.error,
      stripeCheckedAt: payment.checkedAt,
      authProvider: config.authProvider,
      authProviderName: deps.auth.displayName,
      authSecretKeyRequired: config.authProvider === "clerk",
      localUserRole: localUser?.role ?? null,
      environment: config.production ? "production" : "development",
      apiUrl: `${new URL(c.req.url).origin}/api`,
      database: { kind: deps.database.kind, label: databaseLabel(deps.database.kind) },
      checkedAt: deps.clock.now().toISOString(),
    };
    c.header("Cache-Control", "no-store");
    return c.json(body);
  });

  return app;
}
