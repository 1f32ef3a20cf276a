import type { StaffRole } from "../../../contract/access.ts";
import type { Executor } from "../db/executor.ts";

/** A user as the auth provider knows them; `role` mirrors the hosted provider's public-metadata role. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string | null;
  role: StaffRole | "user";
  /**
   * Set on a session opened while two-step sign-in is required and the user had no second factor
   * (built-in provider): until the user enrols, the panel's staff routes refuse it.
   */
  enrolmentDue?: true;
}

export interface SignInResult {
  token: string;
  expiresAt: string;
  user: AuthenticatedUser;
}

/**
 * A right password for a user with two-step sign-in (docs/product.md "Two-step sign-in"): no
 * session yet; the API asks for the second step, then calls `startSession`.
 */
export interface SecondStepDue {
  secondStepDue: true;
  user: AuthenticatedUser;
}

/**
 * What the API needs from an auth provider. The built-in provider implements all of it; a hosted
 * provider (Clerk) signs users in on its own pages, so `signIn` is optional.
 */
export interface AuthProvider {
  /** Shown to admins, e.g. in 'Delete Vendor & {displayName} Account'. */
  readonly displayName: string;
  /**
   * The user behind a bearer token, or null when the token is unknown, expired or revoked.
   * `dataVersion` is the request's once-read Database.dataVersion, for providers that cache.
   */
  authenticate(token: string, dataVersion?: () => string): Promise<AuthenticatedUser | null>;
  /** Null for wrong credentials (the caller answers the same way for unknown e-mails). */
  signIn?(email: string, password: string): Promise<SignInResult | SecondStepDue | null>;
  /** A session for a user who passed every step: after `signIn` answered `SecondStepDue`. */
  startSession?(userId: string): Promise<SignInResult | null>;
  signOut(token: string): Promise<void>;
  /**
   * The account behind a user id, for rules about other users (the vendor-delete guard). Hosted
   * providers, which hold their users' roles, implement it; otherwise the local account is read.
   */
  findUser?(userId: string): Promise<AuthenticatedUser | null>;
  /**
   * Deletes the account and revokes its sessions. `executor` is the caller's open transaction, so a
   * local delete rolls back with it; a hosted provider is called last inside that transaction, so
   * its failure rolls the local changes back too.
   */
  deleteUser(userId: string, executor: Executor): Promise<void>;
}
