import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../contract/admin-users.ts";

/** Shortest password accepted when NODE_ENV=production (the same floor as ADMIN_PASSWORD and BETA_PASSWORD there). */
export const MIN_PRODUCTION_PASSWORD_LENGTH = 12;

/**
 * What is wrong with a password someone chooses (the accept page, docs/product.md §14.3), or null:
 * the same strength rule as `npm run user:create` (at least 8 characters) and the start-up secrets
 * in production (at least 12), never the e-mail address itself.
 */
export function passwordProblem(password: string, email: string, production: boolean): string | null {
  const min = production ? MIN_PRODUCTION_PASSWORD_LENGTH : MIN_PASSWORD_LENGTH;
  if (password.length < min) return `must be at least ${min} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return "must not be your e-mail address";
  if (/^(.)\1*$/.test(password)) return "must not be one character repeated";
  return null;
}
