/**
 * Who may call an endpoint, declared once in its definition (endpoint.ts) and read the same way by
 * the server's guard (src/server/platform/request/endpoint-router.ts) and by the web's screens,
 * which disable what a role cannot do with the reason below (docs/product.md "Roles").
 */

/**
 * The panel's roles, cut to the job: `admin` everything; `finance` the money (Financials, payouts,
 * refunds, statements) and reads everything else; `support` artists, applications, products and
 * their review, announcements, and reads everything else, no money action; `viewer` reads.
 */
export const STAFF_ROLES = ["admin", "finance", "support", "viewer"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** What each role is for, as invitations and role changes offer them. */
export const STAFF_ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  admin: "Everything, including staff, settings and integrations",
  finance: "Financials and payouts; reads everything else",
  support: "Artists, products, announcements and the featured artist; reads everything else, no money actions",
  viewer: "Every screen, read-only",
};

/**
 * Who may call:
 * - "public": anyone; "signed-in": anyone signed in; "api-key": a service with an API key holding
 *   the endpoint's `scope` (never a session: docs/integration.md);
 * - "staff": every panel role (reads: a GET under the staff-only path prefixes);
 * - `{ roles: [...] }`: only the roles named. A change names its roles this way: "admin" always
 *   among them, never "viewer" (the router refuses either mistake at start-up).
 * Staff endpoints live under the staff-only path prefixes, where the guard first refuses anyone
 * without a panel role; the router then holds each endpoint to its own declaration.
 */
export type EndpointAccess = "public" | "signed-in" | "api-key" | "staff" | { roles: readonly StaffRole[] };

/** True for the two staff forms of `access`. */
export function isStaffAccess(access: EndpointAccess): access is "staff" | { roles: readonly StaffRole[] } {
  return access === "staff" || typeof access === "object";
}

/** The roles a staff endpoint lets in (every role for "staff"); empty for the other kinds. */
export function allowedRoles(access: EndpointAccess): readonly StaffRole[] {
  if (access === "staff") return STAFF_ROLES;
  return typeof access === "object" ? access.roles : [];
}

/** Whether a panel role may call a staff endpoint (null: no panel role at all). */
export function roleMayCall(access: EndpointAccess, role: StaffRole | null): boolean {
  return role !== null && allowedRoles(access).includes(role);
}

/** How long a second-factor check lets a session take dangerous actions (`stepUp` endpoints). */
export const STEP_UP_WINDOW_MINUTES = 10;

/** The error code of a dangerous action refused for want of a recent second-factor check. */
export const STEP_UP_REQUIRED = "step_up_required";

/** The reason every change is refused to a viewer (the 403's message and the screens' reason alike). */
export const READ_ONLY_REASON = "Read-only access: viewers cannot make changes";

const ROLE_NAMES: Record<StaffRole, string> = { admin: "admins", finance: "finance", support: "support", viewer: "viewers" };

/**
 * Why `role` may not call a staff endpoint, or undefined when it may: the 403's message, and the
 * reason a screen shows beside the disabled action.
 */
export function accessRefusal(access: EndpointAccess, role: StaffRole | null): string | undefined {
  if (roleMayCall(access, role)) return undefined;
  if (role === "viewer") return READ_ONLY_REASON;
  const names = allowedRoles(access).map((r) => ROLE_NAMES[r]);
  const who = names.length <= 1 ? (names[0] ?? "nobody") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return role === null ? `Only ${who} can do this` : `Your role (${role}) cannot do this: only ${who} can`;
}
