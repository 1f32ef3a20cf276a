import { STEP_UP_REQUIRED, STEP_UP_WINDOW_MINUTES } from "../../../contract/access.ts";
import type { Clock } from "../clock.ts";
import type { AppConfig } from "../config/config.ts";
import type { Database } from "../db/connect.ts";
import { HttpError } from "../http/http-error.ts";
import { sessionIdForToken } from "./local-auth-provider.ts";
import { selectSecondFactorAt } from "./sessions.queries.ts";
import { hasSecondFactor } from "./second-factors.ts";

export const STEP_UP_MESSAGE = `Confirm it's you: this action needs a second-factor check, a code from your authenticator app or a passkey (in the last ${STEP_UP_WINDOW_MINUTES} minutes)`;

/**
 * The check of a dangerous action (an endpoint whose definition says `stepUp`, docs/product.md
 * "Step-up"): the session must have passed a second-factor check in the last 10 minutes, else 403
 * `step_up_required`. Who has no second factor cannot be asked for one: they pass (with 'Require
 * two-step sign-in for all staff' on, nobody is left without one). Under Clerk second factors are
 * Clerk's, and the panel does not ask again.
 */
export function stepUpGuard(deps: { database: Database; clock: Clock; config: Pick<AppConfig, "authProvider"> }): (user: { id: string }, bearerToken: string | null) => Promise<void> {
  return async (user, bearerToken) => {
    if (deps.config.authProvider === "clerk" || !bearerToken) return;
    const db = deps.database.db;
    if (!(await hasSecondFactor(db, user.id))) return;
    const checkedAt = await selectSecondFactorAt(db, sessionIdForToken(bearerToken));
    const oldest = deps.clock.now().getTime() - STEP_UP_WINDOW_MINUTES * 60_000;
    if (checkedAt === null || Date.parse(checkedAt) < oldest) throw new HttpError(403, STEP_UP_REQUIRED, STEP_UP_MESSAGE);
  };
}
