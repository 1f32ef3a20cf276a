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

/**
 * Characters that free text naming a person may not hold (issue 18): control characters (CR, LF,
 * ESC, …), invisible format characters (zero-width ones, bidi overrides and isolates such as U+202E,
 * the soft hyphen), line and paragraph separators, and lone surrogates. Each could forge a line in
 * a mail or make a name read as something it is not.
 */
const FORBIDDEN_IN_IDENTITY_TEXT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const FORBIDDEN_IN_IDENTITY_TEXT_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** The first character `text` may not hold as a name, as "U+202E", or null when there is none. */
export function forbiddenIdentityCharacter(text: string): string | null {
  const found = FORBIDDEN_IN_IDENTITY_TEXT.exec(text)?.[0];
  return found === undefined ? null : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `text` without the characters a name may not hold (for names stored before the rule, shown in mails). */
export function withoutForbiddenIdentityCharacters(text: string): string {
  return text.replace(FORBIDDEN_IN_IDENTITY_TEXT_ALL, "");
}

/**
 * A free-text identity field (a person's name): trimmed, normalised to NFC, `max` characters at
 * most, and refused with a field error when it holds a character `forbiddenIdentityCharacter` names.
 */
export function identityTextSchema(options: { max: number; requiredMessage: string }) {
  return z
    .string()
    .trim()
    .normalize("NFC")
    .min(1, options.requiredMessage)
    .max(options.max, `must be at most ${options.max} characters`)
    .superRefine((value, ctx) => {
      const found = forbiddenIdentityCharacter(value);
      if (found) ctx.addIssue({ code: "custom", message: `must not contain control, invisible or direction-changing characters (found ${found})` });
    });
}

/** Longest reason a decision takes (the artist is shown it). */
export const MAX_DECISION_REASON_LENGTH = 500;

/**
 * The reason of a decision: a template's text or the operator's own (docs/product.md "Reasons for
 * every decision"), trimmed; blank counts as none.
 */
export const decisionReasonSchema = z
  .string({ error: "must be a string" })
  .trim()
  .max(MAX_DECISION_REASON_LENGTH, `must be at most ${MAX_DECISION_REASON_LENGTH} characters`)
  .refine((s) => !s.includes("\u0000"), "must not contain NUL characters");
