import {
  acceptInvitationEndpoint,
  changeUserRoleEndpoint,
  checkInvitationEndpoint,
  inviteAdminUserEndpoint,
  listAdminUsersEndpoint,
  listInvitationsEndpoint,
  listUserSessionsEndpoint,
  removeUserAccessEndpoint,
  resendInvitationEndpoint,
  revokeInvitationEndpoint,
  revokeUserSessionsEndpoint,
} from "../../../contract/admin-users.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { AdminUsersService } from "./admin-users.service.ts";

/**
 * Staff, roles and invitations (docs/product.md §14). Under /api/admin the guard lets viewers read
 * and only admins change; the two accept calls are public (the invitation token authorises them).
 * Invitation links start with the panel's public address (PUBLIC_URL), never the request's Host.
 */
export function adminUsersRoutes(router: EndpointRouter, deps: AppDeps): void {
  const staff = new AdminUsersService(deps);

  router.handle(listAdminUsersEndpoint, ({ query }) => staff.list(query));
  router.handle(inviteAdminUserEndpoint, ({ body }, { actor }) => staff.invite(actor, body.email, body.role));
  // Before the "{id}" routes of users, so "invitations" is never read as a user id.
  router.handle(listInvitationsEndpoint, () => staff.listInvitations());
  router.handle(revokeInvitationEndpoint, ({ params }, { actor }) => staff.revokeInvitation(actor, params.id));
  router.handle(resendInvitationEndpoint, ({ params }, { actor }) => staff.resendInvitation(actor, params.id));
  router.handle(changeUserRoleEndpoint, ({ params, body }, { actor }) => staff.changeRole(actor, params.id, body.role));
  router.handle(removeUserAccessEndpoint, ({ params }, { actor }) => staff.removeAccess(actor, params.id));
  router.handle(listUserSessionsEndpoint, ({ params }, { bearerToken }) => staff.sessions(params.id, bearerToken));
  router.handle(revokeUserSessionsEndpoint, ({ params }, { actor }) => staff.revokeSessions(actor, params.id));
  router.handle(checkInvitationEndpoint, ({ body }) => staff.checkInvitation(body.token));
  router.handle(acceptInvitationEndpoint, ({ body }, { clientIp, userAgent, requestId }) => staff.acceptInvitation(body.token, body.name, body.password, { clientIp, userAgent, requestId }));
}
