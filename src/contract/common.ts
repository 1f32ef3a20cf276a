import { z } from "zod";

/**
 * The one error shape every API failure answers with. `fields` is there for invalid input only:
 * each input at fault (a body key, a query parameter, a path parameter) with its message.
 */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Page/limit query used by paginated lists; limit is capped so no request can ask for an unbounded page. */
export const MAX_PAGE_LIMIT = 100;
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(20),
});

/** "true" / "false" in a query string; anything else is a 400, not a silent false. */
export const queryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");

export const healthResponseSchema = z.object({
  status: z.literal("ok"),
  database: z.enum(["sqlite", "postgres"]),
  time: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
