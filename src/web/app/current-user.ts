import { createContext, useContext } from "react";
import type { PublicUser } from "@contract/auth";
import { type StaffRole, accessRefusal } from "@contract/access";
import type { EndpointDefinition } from "@contract/endpoint";

/** The signed-in staff member, provided by the auth gate to everything inside it. */
export const CurrentUserContext = createContext<PublicUser | null>(null);

export function useCurrentUser(): PublicUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error("useCurrentUser must be used inside the auth gate");
  return user;
}

/** The short reason shown on every disabled action of a read-only (viewer) session: the server's 403 message too. */
export { READ_ONLY_REASON } from "@contract/access";

/**
 * Whether the signed-in user's role may call `endpoint` (its `access`, declared once in
 * src/contract; docs/product.md "Roles"): screens disable or hide the action with `reason` instead
 * of failing on click; the server refuses it anyway, with the same words. Outside the auth gate (a
 * screen rendered on its own) everything is allowed.
 */
export function useEndpointAccess(endpoint: Pick<EndpointDefinition, "access">): { allowed: boolean; reason: string | undefined } {
  const user = useContext(CurrentUserContext);
  const reason = user ? accessRefusal(endpoint.access, user.staffRole) : undefined;
  return { allowed: reason === undefined, reason };
}

/** The signed-in user's panel role ("admin" outside the auth gate, where a screen is rendered on its own). */
export function useStaffRole(): StaffRole | null {
  const user = useContext(CurrentUserContext);
  return user ? user.staffRole : "admin";
}

/** Whether the signed-in user may change anything at all (every role but viewer): the read-only banner and the hidden bulk selections. */
export function useWriteAccess(): { canWrite: boolean } {
  const user = useContext(CurrentUserContext);
  return { canWrite: user?.canWrite ?? true };
}
