import { STAFF_ROLES, type StaffRole } from "../../../contract/access.ts";

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

/** The roles other than admin that open the panel (src/contract/access.ts, docs/product.md "Roles"). */
const NON_ADMIN_STAFF_ROLES: ReadonlySet<string> = new Set(STAFF_ROLES.filter((role) => role !== "admin"));

/**
 * The panel role in effect: "admin" for an admin by the rule above (by role or by the company
 * domain, whatever the stored role), the stored role when it is another panel role, else null (no
 * panel access). `user.isAdmin` is the admin rule's result for that user, computed once per session.
 */
export function staffRoleOf(user: { isAdmin: boolean; role: string }): StaffRole | null {
  if (user.isAdmin) return "admin";
  return NON_ADMIN_STAFF_ROLES.has(user.role) ? (user.role as StaffRole) : null;
}

/** Who may open the panel at all: anyone with a panel role (admins by role or domain included). */
export function hasPanelAccess(user: { role: string; email: string }, adminEmailDomain: string): boolean {
  return staffRoleOf({ isAdmin: isAdminUser(user, adminEmailDomain), role: user.role }) !== null;
}

/** The role-independent facts the API reports about a user (docs/product.md §1.3, §11.2). */
export interface PanelPermissions {
  isAdmin: boolean;
  /** The panel role in effect, or null without panel access. */
  staffRole: StaffRole | null;
  /** May open the panel: every panel role. */
  panelAccess: boolean;
  /** May change something: every panel role but viewer (each endpoint names the roles it allows). */
  canWrite: boolean;
}

export function panelPermissions(user: { role: string; email: string }, adminEmailDomain: string): PanelPermissions {
  const isAdmin = isAdminUser(user, adminEmailDomain);
  const staffRole = staffRoleOf({ isAdmin, role: user.role });
  return { isAdmin, staffRole, panelAccess: staffRole !== null, canWrite: staffRole !== null && staffRole !== "viewer" };
}

/** True when the address is at exactly the company domain: such a user is an admin whatever the stored role. */
export function isCompanyDomainEmail(email: string, adminEmailDomain: string): boolean {
  return isAdminUser({ role: "user", email }, adminEmailDomain);
}

/** Methods that change nothing. */
const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * Whether a signed-in user gets past the guard of the staff-only path prefixes at all: anyone
 * with a panel role, except that a viewer (who changes nothing anywhere) is refused every method
 * but GET and HEAD, registered or not. Each endpoint then holds the caller to the roles its
 * definition names (`roleMayCall`, src/contract/access.ts), in the endpoint router.
 */
export function staffPrefixAccess(user: { isAdmin: boolean; role: string }, method: string): "allowed" | "read-only" | "denied" {
  const role = staffRoleOf(user);
  if (role === null) return "denied";
  if (role === "viewer" && !READ_METHODS.has(method.toUpperCase())) return "read-only";
  return "allowed";
}
