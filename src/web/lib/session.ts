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

/**
 * Where the API client gets its bearer token (docs/product.md §1.4), asynchronously for every
 * provider: the built-in sign-in keeps it in localStorage (above); under Clerk the Clerk module
 * installs Clerk's `getToken()`, which answers a cached session token and fetches a fresh one
 * before the current one expires.
 */
export type TokenSource = () => Promise<string | null>;

const storedToken: TokenSource = () => Promise.resolve(getSessionToken());
let tokenSource: TokenSource = storedToken;

/** The bearer token for the next call, or null when nobody is signed in. */
export function getAuthToken(): Promise<string | null> {
  return tokenSource();
}

/** Installs another provider's token source; returns the function that puts the stored one back. */
export function setTokenSource(source: TokenSource): () => void {
  tokenSource = source;
  return () => {
    if (tokenSource === source) tokenSource = storedToken;
  };
}
