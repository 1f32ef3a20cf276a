import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Executor } from "../db/executor.ts";
import type { AuthProvider, AuthenticatedUser, SecondStepDue, SignInResult } from "./auth-provider.ts";
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from "./password-hash.ts";
import type { SessionCache } from "./session-cache.ts";
import { deleteUserSessions, insertSession, revokeSession, selectSessionUser } from "./sessions.queries.ts";
import { hasSecondFactor } from "./second-factors.ts";
import { twoStepRequired } from "./two-step.queries.ts";
import { findUserByEmail } from "./users.ts";
import { deleteUserRow, selectSessionUserById, updatePasswordHash } from "./users.queries.ts";

/** Sessions last a working day; sign-out revokes them sooner. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Sessions are stored by the sha256 of their token, so a database leak does not leak live tokens. */
export function sessionIdForToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Tokens are 32 random bytes, base64url: anything else cannot be a token and skips the database. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class LocalAuthProvider implements AuthProvider {
  readonly displayName = "HKI Global";

  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    /** Only where the data version covers other processes (SQLite, PostgreSQL's change feed); see session-cache.ts. */
    private readonly sessions?: SessionCache,
  ) {}

  /**
   * The password check, then a session, unless the user has two-step sign-in (an authenticator app or a passkey): then no session
   * yet (the API asks for the code, then calls `startSession`). Users without it sign in as before.
   */
  async signIn(email: string, password: string): Promise<SignInResult | SecondStepDue | null> {
    const user = await this.checkPassword(email, password);
    if (!user) return null;
    // An authenticator app or a passkey: the password is one factor of two.
    if (await hasSecondFactor(this.db, user.id)) return { secondStepDue: true, user };
    // Without either, while two-step sign-in is required, the session is held at enrolment.
    return this.openSession(user, { enrolmentDue: await twoStepRequired(this.db) });
  }

  /** The account behind a right e-mail and password, or null; creates no session. */
  async checkPassword(email: string, password: string): Promise<AuthenticatedUser | null> {
    const user = await findUserByEmail(this.db, email);
    // Unknown e-mails cost one hash verification too, so timing does not reveal which accounts exist.
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
    if (!user || !user.password_hash || !ok) return null;
    // A hash at older parameters (e.g. 128 MiB per check before issue 25) is replaced now that the password is known.
    if (needsRehash(user.password_hash)) await updatePasswordHash(this.db, user.id, user.password_hash, await hashPassword(password));
    return { id: user.id, email: user.email, name: user.name, role: user.role };
  }

  /** After the second step: the session starts with its second factor just checked (a step-up's 10 minutes run from now). */
  async startSession(userId: string): Promise<SignInResult | null> {
    const user = await selectSessionUserById(this.db, userId);
    return user ? this.openSession(user, { enrolmentDue: false, secondFactorChecked: true }) : null;
  }

  /**
   * A new session. `enrolmentDue`: opened while two-step sign-in is required for a user without
   * it; the staff routes refuse the session until the user enrols (request/auth-middleware.ts).
   */
  private async openSession(user: AuthenticatedUser, facts: { enrolmentDue: boolean; secondFactorChecked?: boolean }): Promise<SignInResult> {
    const token = randomBytes(32).toString("base64url");
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
    await insertSession(this.db, {
      id: sessionIdForToken(token),
      user_id: user.id,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      revoked_at: null,
      second_factor_at: facts.secondFactorChecked ? now.toISOString() : null,
      enrolment_due: facts.enrolmentDue ? 1 : 0,
    });
    return { token, expiresAt, user: facts.enrolmentDue ? { ...user, enrolmentDue: true } : user };
  }

  async authenticate(token: string, dataVersion?: () => string): Promise<AuthenticatedUser | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const sessionId = sessionIdForToken(token);
    const now = this.clock.now().toISOString();
    // Read BEFORE the query: a write landing meanwhile leaves the new entry already stale.
    const version = this.sessions ? (dataVersion ?? this.sessions.dataVersion)() : undefined;
    if (version !== undefined) {
      const cached = this.sessions!.get(sessionId, version, now);
      if (cached) return cached;
    }
    const row = await selectSessionUser(this.db, sessionId);
    if (!row || row.revoked_at !== null || row.expires_at <= now) return null;
    const user: AuthenticatedUser = { id: row.id, email: row.email, name: row.name, role: row.role, ...(Number(row.enrolment_due) === 1 ? { enrolmentDue: true as const } : {}) };
    if (version !== undefined) this.sessions!.set(sessionId, version, user, row.expires_at);
    return user;
  }

  async signOut(token: string): Promise<void> {
    await revokeSession(this.db, sessionIdForToken(token), this.clock.now().toISOString());
  }

  async deleteUser(userId: string, executor: Executor): Promise<void> {
    await deleteUserSessions(executor, userId);
    await deleteUserRow(executor, userId);
  }
}
