import { createContext, useContext } from "react";
import type { PublicUser } from "@contract/auth";

/** The signed-in admin, provided by the auth gate to everything inside it. */
export const CurrentUserContext = createContext<PublicUser | null>(null);

export function useCurrentUser(): PublicUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error("useCurrentUser must be used inside the auth gate");
  return user;
}

/** The short reason shown on every disabled action of a read-only (viewer) session. */
export const READ_ONLY_REASON = "Read-only access: viewers cannot make changes";

/**
 * Whether the signed-in user may change anything (docs/product.md §1.3): admins may, viewers only
 * read. Screens disable their actions with `reason` instead of failing on click; the server refuses
 * them anyway. Outside the auth gate (a screen rendered on its own) nothing is disabled.
 */
export function useWriteAccess(): { canWrite: boolean; reason: string | undefined } {
  const user = useContext(CurrentUserContext);
  const canWrite = user?.canWrite ?? true;
  return { canWrite, reason: canWrite ? undefined : READ_ONLY_REASON };
}
