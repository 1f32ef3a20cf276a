import type { TokenSource } from "./session";

/** The part of a Clerk instance the token source reads: its active session, if any. */
export interface ClerkSessionHolder {
  readonly session?: { getToken(): Promise<string | null> } | null | undefined;
}

/**
 * The API client's token source under Clerk: the active session's `getToken()`, asked on every call.
 * Clerk answers it from its cache while the session token has time left and fetches a fresh one
 * before it expires (session tokens live about a minute), so a long session never presents an
 * expired token and never needs a visible sign-in again. Signed out: null, so no header is sent.
 */
export function clerkTokenSource(clerk: ClerkSessionHolder): TokenSource {
  return async () => {
    const session = clerk.session;
    if (!session) return null;
    return (await session.getToken()) ?? null;
  };
}
