import { z } from "zod";
import { publicConfigSchema } from "./auth.ts";
import { healthResponseSchema } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const healthEndpoint = defineEndpoint({
  method: "get",
  path: "/api/health",
  area: "public",
  access: "public",
  summary: "Liveness: the process answers and its database answers a trivial query",
  success: { status: 200, description: "Alive", schema: healthResponseSchema },
  errors: [503],
});

export const publicConfigEndpoint = defineEndpoint({
  method: "get",
  path: "/api/config",
  area: "public",
  access: "public",
  summary: "The non-secret facts the web app needs before sign-in",
  success: { status: 200, description: "Storefront address and auth provider name", schema: publicConfigSchema },
});

export const readyResponseSchema = z.object({
  status: z.literal("ready"),
  database: z.enum(["sqlite", "postgres"]),
  /** Migrations this build knows, all applied. */
  migrations: z.number().int(),
  time: z.string(),
});
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

export const readyEndpoint = defineEndpoint({
  method: "get",
  path: "/api/ready",
  area: "public",
  access: "public",
  summary: "Readiness: the database answers and every migration of this build has run (503 otherwise, with the reason)",
  success: { status: 200, description: "Ready to serve", schema: readyResponseSchema },
  errors: [503],
});
