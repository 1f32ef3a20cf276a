import { betaVerifyEndpoint, meEndpoint, signInEndpoint, signOutEndpoint } from "../../../contract/auth.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { panelPermissions } from "../../platform/identity/admin-rule.ts";
import { AuthService } from "./auth.service.ts";

/** Sign-in, sign-out, the signed-in user and the beta gate (docs/product.md §1 Access). */
export function authRoutes(router: EndpointRouter, deps: AppDeps): void {
  const auth = new AuthService(deps);

  router.handle(signInEndpoint, ({ body }, { clientIp, userAgent, requestId }) => auth.signIn(body.email, body.password, { clientIp, userAgent, requestId }));
  router.handle(signOutEndpoint, (_input, { bearerToken }) => auth.signOut(bearerToken));
  router.handle(meEndpoint, (_input, { user }) => ({
    user: { id: user.id, email: user.email, name: user.name, role: user.role, ...panelPermissions(user, deps.config.adminEmailDomain) },
  }));
  router.handle(betaVerifyEndpoint, ({ body }, { clientIp }) => auth.verifyBetaPassword(body.password, clientIp));
}
