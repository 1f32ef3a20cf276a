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

/** The role-independent facts the API reports about a user (docs/product.md §1.3, §11.2). */
export interface PanelPermissions {
  isAdmin: boolean;
  /** May open the panel: admins and viewers. */
  panelAccess: boolean;
  /** May change anything: admins only. */
  canWrite: boolean;
}

export function panelPermissions(user: { role: string; email: string }, adminEmailDomain: string): PanelPermissions {
  const isAdmin = isAdminUser(user, adminEmailDomain);
  return { isAdmin, panelAccess: isAdmin || user.role === VIEWER_ROLE, canWrite: isAdmin };
}

/** True when the address is at exactly the company domain: such a user is an admin whatever the stored role. */
export function isCompanyDomainEmail(email: string, adminEmailDomain: string): boolean {
  return isAdminUser({ role: "user", email }, adminEmailDomain);
}

/** Methods that change nothing: the only ones a viewer may call. */
const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * What a signed-in user may do with an admin-only route: admins call anything, viewers only read
 * (GET, HEAD), everyone else nothing. The guard (auth-middleware.ts) applies it to every route under
 * the admin-only prefixes. `user.isAdmin` is the admin rule's result for that user.
 */
export function adminRouteAccess(user: { isAdmin: boolean; role: string }, method: string): "allowed" | "read-only" | "denied" {
  if (user.isAdmin) return "allowed";
  if (user.role !== VIEWER_ROLE) return "denied";
  return READ_METHODS.has(method.toUpperCase()) ? "allowed" : "read-only";
}

/** The message of the 403 a viewer gets for a change (the UI shows the actions disabled with a shorter reason). */
export const READ_ONLY_MESSAGE = "Read-only access: viewers cannot make changes";
