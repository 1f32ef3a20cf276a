/**
 * The signed-in session's bearer token, kept in localStorage so a reload keeps the user signed in.
 * Auth is by bearer token only (docs/product.md §1.4: never a cookie).
 */
export const SESSION_STORAGE_KEY = "hki-admin-session";

type Listener = () => void;
const listeners = new Set<Listener>();

export function getSessionToken(): string | null {
  try {
    return localStorage.getItem(SESSION_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function setSessionToken(token: string): void {
  localStorage.setItem(SESSION_STORAGE_KEY, token);
  notify();
}

export function clearSessionToken(): void {
  localStorage.removeItem(SESSION_STORAGE_KEY);
  notify();
}

/** Lets the auth gate react when the token changes (sign-in, sign-out, a 401 elsewhere). */
export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function notify(): void {
  for (const listener of listeners) listener();
}
