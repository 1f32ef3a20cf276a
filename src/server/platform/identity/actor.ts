import type { AuthenticatedUser } from "./auth-provider.ts";

/** The signed-in user as handlers see it; set by the auth middleware. */
export type ActingUser = AuthenticatedUser & { isAdmin: boolean };

/** Who acts and from where: what services need for rules and audit rows. */
export interface Actor {
  user: ActingUser;
  clientIp: string;
  userAgent: string | null;
  /** The request's id (X-Request-Id), also in logs: ties an audit row to its request. */
  requestId: string;
}
