import { STEP_UP_WINDOW_MINUTES } from "../../../contract/access.ts";
import type { PasskeyAuthenticationResponse, PasskeyRequestOptions, StepUpResponse } from "../../../contract/auth.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { conflict, unauthorized } from "../../platform/http/http-error.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { countUserPasskeys } from "../../platform/identity/passkeys.queries.ts";
import { markSecondFactor } from "../../platform/identity/sessions.queries.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { PasskeysService } from "./passkeys.service.ts";

const CLERK_STEP_UP = "Under Clerk, second factors are Clerk's: the panel does not ask for them";

/**
 * A step-up by passkey (docs/product.md "Step-up"): the signed-in user answers a ceremony that only
 * their own passkeys can, and this session may take dangerous actions for 10 minutes, as after a
 * code of the authenticator app (two-step.service.ts `stepUp`). A refused assertion is audited as
 * `auth.step_up_failed`; a passkey cannot be guessed, so no attempt limit is needed beyond the
 * challenge being spent by the first answer.
 */
export class PasskeyStepUpService {
  private readonly passkeys: PasskeysService;

  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "config">) {
    this.passkeys = new PasskeysService(deps);
  }

  async options(actor: Actor): Promise<PasskeyRequestOptions> {
    if (this.deps.config.authProvider === "clerk") throw conflict(CLERK_STEP_UP);
    if ((await countUserPasskeys(this.deps.database.db, actor.user.id)) === 0) throw conflict("You have no passkey to confirm with: add one from the user menu, or use your authenticator app");
    return this.passkeys.requestOptions("step_up", actor.user.id);
  }

  async confirm(actor: Actor, response: PasskeyAuthenticationResponse, sessionId: string | null): Promise<StepUpResponse> {
    if (this.deps.config.authProvider === "clerk" || !sessionId) throw conflict(CLERK_STEP_UP);
    const outcome = await this.passkeys.verifyAssertion("step_up", actor.user.id, response);
    const target = { type: "user", id: actor.user.id, label: actor.user.email };
    if (!outcome.ok) {
      await recordAudit(this.deps.database.db, { actor, action: "auth.step_up_failed", target, details: { factor: "passkey", reason: outcome.reason } }, this.deps.clock);
      throw unauthorized("The passkey was not accepted: try again, or use your authenticator app");
    }
    const now = this.deps.clock.now();
    await this.deps.database.db.transaction().execute(async (trx) => {
      await markSecondFactor(trx, sessionId, now.toISOString());
      await recordAudit(trx, { actor, action: "auth.step_up", target, details: { factor: "passkey", device: outcome.passkey.name } }, this.deps.clock);
    });
    return { validUntil: new Date(now.getTime() + STEP_UP_WINDOW_MINUTES * 60_000).toISOString() };
  }
}
