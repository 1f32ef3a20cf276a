import {
  betaVerifyEndpoint,
  meEndpoint,
  resetUserTwoStepEndpoint,
  signInEndpoint,
  signInSecondStepEndpoint,
  signOutEndpoint,
  stepUpEndpoint,
  twoStepConfirmEndpoint,
  twoStepDisableEndpoint,
  twoStepSetupEndpoint,
  twoStepStatusEndpoint,
} from "../../../contract/auth.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { panelPermissions } from "../../platform/identity/admin-rule.ts";
import { AuthService } from "./auth.service.ts";
import { TwoStepService } from "./two-step.service.ts";
import {
  passkeyListEndpoint,
  passkeyRegisterEndpoint,
  passkeyRegistrationOptionsEndpoint,
  passkeyRemoveEndpoint,
  passkeyRenameEndpoint,
  passkeySignInEndpoint,
  passkeySignInOptionsEndpoint,
  secondStepPasskeyEndpoint,
  secondStepPasskeyOptionsEndpoint,
  stepUpPasskeyEndpoint,
  stepUpPasskeyOptionsEndpoint,
} from "../../../contract/auth.ts";
import { PasskeysService } from "./passkeys.service.ts";
import { PasskeySignInService } from "./passkey-sign-in.service.ts";
import { PasskeyStepUpService } from "./passkey-step-up.service.ts";
import { sessionIdForToken } from "../../platform/identity/local-auth-provider.ts";
import { twoStepRequired } from "../../platform/identity/two-step.queries.ts";

/** The built-in session a bearer token names (a hashed lookup key; under Clerk it names no row, and nothing is marked). */
const sessionIdOf = (token: string | null): string | null => (token ? sessionIdForToken(token) : null);

/** Sign-in (with its second step), sign-out, the signed-in user, two-step enrolment and the beta gate (docs/product.md §1 Access). */
export function authRoutes(router: EndpointRouter, deps: AppDeps): void {
  const auth = new AuthService(deps);
  const twoStep = new TwoStepService(deps);

  router.handle(signInEndpoint, ({ body }, { clientIp, userAgent, requestId }) => auth.signIn(body.email, body.password, { clientIp, userAgent, requestId }));
  router.handle(signInSecondStepEndpoint, ({ body }, { clientIp, userAgent, requestId }) =>
    auth.completeSecondStep(body.challenge, body.code !== undefined ? { code: body.code } : { recoveryCode: body.recoveryCode ?? "" }, { clientIp, userAgent, requestId }),
  );
  router.handle(signOutEndpoint, (_input, { bearerToken }) => auth.signOut(bearerToken));
  router.handle(meEndpoint, (_input, { user }) => ({
    user: { id: user.id, email: user.email, name: user.name, role: user.role, ...panelPermissions(user, deps.config.adminEmailDomain), twoStepEnrolmentDue: user.enrolmentDue === true },
  }));
  router.handle(twoStepStatusEndpoint, (_input, { user }) => twoStep.status(user.id));
  router.handle(twoStepSetupEndpoint, (_input, { actor }) => twoStep.setup(actor));
  router.handle(twoStepConfirmEndpoint, ({ body }, { actor, bearerToken }) => twoStep.confirm(actor, body.code, sessionIdOf(bearerToken)));
  router.handle(twoStepDisableEndpoint, ({ body }, { actor }) => twoStep.disable(actor, body.code));
  router.handle(stepUpEndpoint, ({ body }, { actor, bearerToken }) =>
    twoStep.stepUp(actor, body.code !== undefined ? { code: body.code } : { recoveryCode: body.recoveryCode ?? "" }, sessionIdOf(bearerToken)),
  );
  router.handle(resetUserTwoStepEndpoint, ({ params }, { actor }) => twoStep.reset(actor, params.id));
  router.handle(betaVerifyEndpoint, ({ body }, { clientIp }) => auth.verifyBetaPassword(body.password, clientIp));
  passkeyRoutes(router, deps, auth);
}

/** Passkeys: adding, naming and removing them, signing in with one alone, and the second step by one. */
function passkeyRoutes(router: EndpointRouter, deps: AppDeps, auth: AuthService): void {
  // The last factor stays while 'Require two-step sign-in for all staff' is on (second-factors.ts canRemoveLastFactor).
  const passkeys = new PasskeysService(deps, () => twoStepRequired(deps.database.db));
  const passkeySignIn = new PasskeySignInService(deps);

  router.handle(passkeyListEndpoint, (_input, { user }) => passkeys.list(user.id));
  router.handle(passkeyRegistrationOptionsEndpoint, (_input, { actor }) => passkeys.registrationOptions(actor));
  router.handle(passkeyRegisterEndpoint, ({ body }, { actor }) => passkeys.register(actor, body.name, body.response));
  router.handle(passkeyRenameEndpoint, ({ params, body }, { actor }) => passkeys.rename(actor, params.id, body.name));
  router.handle(passkeyRemoveEndpoint, ({ params }, { actor }) => passkeys.remove(actor, params.id));
  router.handle(passkeySignInOptionsEndpoint, (_input, { clientIp, userAgent, requestId }) => passkeySignIn.signInOptions({ clientIp, userAgent, requestId }));
  router.handle(passkeySignInEndpoint, ({ body }, { clientIp, userAgent, requestId }) => passkeySignIn.signIn(body.response, { clientIp, userAgent, requestId }));
  router.handle(secondStepPasskeyOptionsEndpoint, ({ body }, { clientIp, userAgent, requestId }) => passkeySignIn.secondStepOptions(body.challenge, { clientIp, userAgent, requestId }));
  const stepUp = new PasskeyStepUpService(deps);
  router.handle(stepUpPasskeyOptionsEndpoint, (_input, { actor }) => stepUp.options(actor));
  router.handle(stepUpPasskeyEndpoint, ({ body }, { actor, bearerToken }) => stepUp.confirm(actor, body.response, sessionIdOf(bearerToken)));
  router.handle(secondStepPasskeyEndpoint, ({ body }, { clientIp, userAgent, requestId }) => auth.completeSecondStep(body.challenge, { passkey: body.response }, { clientIp, userAgent, requestId }));
}
