import { createContext, useContext } from "react";
import type { PublicUser } from "@contract/auth";

/** The signed-in admin, provided by the auth gate to everything inside it. */
export const CurrentUserContext = createContext<PublicUser | null>(null);

export function useCurrentUser(): PublicUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error("useCurrentUser must be used inside the auth gate");
  return user;
}
