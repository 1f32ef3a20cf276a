/**
 * The admin rule (docs/product.md §1.3), in the one place the server decides it: role "admin" in the
 * user's public metadata, or a primary e-mail at exactly the company's domain. The domain is
 * compared whole and case-insensitively, so "x@evilhki.global" and "x@hki.global.evil.com" are not admins.
 */
export function isAdminUser(user: { role: string; email: string }, adminEmailDomain: string): boolean {
  if (user.role === "admin") return true;
  const at = user.email.lastIndexOf("@");
  if (at < 1) return false;
  return user.email.slice(at + 1).toLowerCase() === adminEmailDomain.toLowerCase();
}

/** The read-only role: every screen and every read, no change (docs/product.md §1.3). */
export const VIEWER_ROLE = "viewer";

/** Who may open the panel at all: admins (by role or domain) and viewers. */
export function hasPanelAccess(user: { role: string; email: string }, adminEmailDomain: string): boolean {
  return isAdminUser(user, adminEmailDomain) || user.role === VIEWER_ROLE;
}
