import type { PublicConfig } from "../../contract/auth.ts";
import type { HealthResponse } from "../../contract/common.ts";
import type { AppDeps } from "../app-env.ts";
import { pingDatabase } from "./public.queries.ts";

/** Liveness and the non-secret facts the web app needs before sign-in (docs/product.md §10.3). */
export class PublicService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "config" | "auth">) {}

  async health(): Promise<HealthResponse> {
    await pingDatabase(this.deps.database.db);
    return { status: "ok", database: this.deps.database.kind, time: this.deps.clock.now().toISOString() };
  }

  publicConfig(): PublicConfig {
    return { storefrontUrl: this.deps.config.storefrontUrl, authProviderName: this.deps.auth.displayName };
  }
}
