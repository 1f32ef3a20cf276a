import type { PublicConfig } from "../../../contract/auth.ts";
import type { HealthResponse } from "../../../contract/common.ts";
import type { ReadyResponse } from "../../../contract/public.ts";
import { pendingMigrations } from "../../platform/db/migrate.ts";
import { serviceUnavailable } from "../../platform/http/http-error.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { pingDatabase } from "./public.queries.ts";

/** Liveness and the non-secret facts the web app needs before sign-in (docs/product.md §10.3). */
export class PublicService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "config" | "auth">) {}

  async health(): Promise<HealthResponse> {
    await pingDatabase(this.deps.database.db);
    return { status: "ok", database: this.deps.database.kind, time: this.deps.clock.now().toISOString() };
  }

  /**
   * Readiness (load balancers, the container's HEALTHCHECK): the database answers and has run
   * every migration this build knows. Otherwise 503 with the reason, so traffic waits.
   */
  async ready(): Promise<ReadyResponse> {
    const { database, clock } = this.deps;
    let pending: string[];
    let known: number;
    try {
      await pingDatabase(database.db);
      ({ pending, known } = await pendingMigrations(database.db));
    } catch {
      throw serviceUnavailable("Not ready: the database does not answer", 5);
    }
    if (pending.length > 0) throw serviceUnavailable(`Not ready: ${pending.length} migration(s) not applied (${pending.join(", ")})`, 5);
    return { status: "ready", database: database.kind, migrations: known, time: clock.now().toISOString() };
  }

  /** What the web needs before sign-in: under Clerk, which provider and its publishable key (public by design). */
  publicConfig(): PublicConfig {
    const { config } = this.deps;
    return {
      storefrontUrl: config.storefrontUrl,
      authProviderName: this.deps.auth.displayName,
      authProvider: config.authProvider,
      ...(config.authProvider === "clerk" && config.clerkPublishableKey ? { clerkPublishableKey: config.clerkPublishableKey } : {}),
    };
  }
}
