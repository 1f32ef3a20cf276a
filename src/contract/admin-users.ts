import { z } from "zod";
import { MAX_PAGE_LIMIT, identityTextSchema } from "./common.ts";
import { signInResponseSchema } from "./auth.ts";
import { defineEndpoint } from "./endpoint.ts";
import { STAFF_ROLES } from "./access.ts";

/**
 * Staff of the panel: who has access, how, and the invitations that grant it (docs/product.md §14
 * Staff, roles and audit). Constants the web shows are plain literals (decision 0007).
 */

/** Roles that give panel access (access.ts); `user` is everyone else. */
export { STAFF_ROLES, type StaffRole } from "./access.ts";
export const staffRoleSchema = z.enum(STAFF_ROLES);

/** How long an invitation link works. */
export const INVITATION_TTL_DAYS = 7;
/** Shortest password an invitee may choose (the same rule as `npm run user:create`; 12 when NODE_ENV=production). */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_NAME_LENGTH = 200;
export const MAX_USER_SEARCH_LENGTH = 200;
/** Invitation tokens are 32 random bytes, base64url (43 characters); anything longer is not one. */
const MAX_TOKEN_LENGTH = 100;

const emailSchema = z.string().trim().toLowerCase().max(320, "must be at most 320 characters").pipe(z.email("must be a valid e-mail address"));

/** Someone with panel access, as the Users tab lists them. */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  /** The role in effect: an address at the company domain is an admin whatever its stored role. */
  role: staffRoleSchema,
  /** How the access was granted: by the stored role, or by an e-mail at the company domain. */
  access: z.enum(["role", "domain"]),
  /** When the user last signed in here (built-in provider), or null. */
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  /** Sessions that are neither revoked nor expired. */
  activeSessions: z.number(),
  /** Two-step sign-in is on (an authenticator app or a passkey; built-in provider): an admin can reset it. Always sent; absent reads as off. */
  twoStep: z.boolean().optional(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/**
 * Orders of the Users tab: by e-mail (the default), by `name` (people without one first), or by
 * `lastSignIn` (never signed in first); a leading '-' reverses. A plain list (decision 0007).
 */
export const STAFF_SORTS = ["email", "-email", "name", "-name", "lastSignIn", "-lastSignIn"] as const;
export const staffSortSchema = z.enum(STAFF_SORTS);
export type StaffSort = z.infer<typeof staffSortSchema>;

export const adminUsersQuerySchema = z.object({
  /** Part of the e-mail or name, ignoring case. */
  search: z.string().trim().max(MAX_USER_SEARCH_LENGTH).optional(),
  role: staffRoleSchema.optional(),
  sort: staffSortSchema.default("email"),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
  cursor: z.string().min(1).max(200).optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserSchema),
  /** Everyone matching the search and role filter (all pages). */
  total: z.number(),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const INVITATION_STATUSES = ["pending", "expired", "accepted", "revoked"] as const;
export const invitationStatusSchema = z.enum(INVITATION_STATUSES);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

/** An invitation as the Invitations tab lists it (the link is never shown again: only its hash is stored). */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  status: invitationStatusSchema,
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** An invitation just sent (or sent again): the only time its link is shown. */
export const sentInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  expiresAt: z.string(),
  /** The single-use accept link (under the hosted provider, its own invitation link, or null when it gives none). */
  link: z.string().nullable(),
});
export type SentInvitation = z.infer<typeof sentInvitationSchema>;

export const inviteRequestSchema = z.strictObject({ email: emailSchema, role: staffRoleSchema });
export type InviteRequest = z.input<typeof inviteRequestSchema>;
export const inviteResponseSchema = z.object({ invitation: sentInvitationSchema });
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

export const invitationsResponseSchema = z.object({
  /** Invitations not yet accepted nor revoked (pending, then expired), newest first, at most 200. */
  invitations: z.array(invitationSchema),
});
export type InvitationsResponse = z.infer<typeof invitationsResponseSchema>;

export const changeRoleRequestSchema = z.strictObject({ role: staffRoleSchema });
export type ChangeRoleRequest = z.infer<typeof changeRoleRequestSchema>;
export const adminUserResponseSchema = z.object({ user: adminUserSchema });
export type AdminUserResponse = z.infer<typeof adminUserResponseSchema>;

export const removeAccessResponseSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), role: z.literal("user") }),
  sessionsRevoked: z.number(),
});
export type RemoveAccessResponse = z.infer<typeof removeAccessResponseSchema>;

export const userSessionSchema = z.object({
  /** A short handle of the session (not its token, nor the token's hash). */
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** The session of the request itself. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSessionSchema>;
export const userSessionsResponseSchema = z.object({ sessions: z.array(userSessionSchema) });
export type UserSessionsResponse = z.infer<typeof userSessionsResponseSchema>;
export const revokeSessionsResponseSchema = z.object({ revoked: z.number() });
export type RevokeSessionsResponse = z.infer<typeof revokeSessionsResponseSchema>;

const tokenSchema = z.string().min(1, "token is required").max(MAX_TOKEN_LENGTH, "not a valid invitation token");
export const invitationCheckRequestSchema = z.strictObject({ token: tokenSchema });
export const invitationCheckResponseSchema = z.object({
  invitation: z.object({ email: z.string(), role: staffRoleSchema, expiresAt: z.string() }),
});
export type InvitationCheckResponse = z.infer<typeof invitationCheckResponseSchema>;
export const acceptInvitationRequestSchema = z.strictObject({
  token: tokenSchema,
  /** Normalised (NFC); control, invisible and direction-changing characters are refused (issue 18). */
  name: identityTextSchema({ max: MAX_NAME_LENGTH, requiredMessage: "name is required" }),
  password: z.string().min(1, "password is required").max(MAX_PASSWORD_LENGTH),
});
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;

const userIdParams = z.object({ id: z.string() });
const STAFF_AREAS = ["admin-users", "audit-log"] as const;

export const listAdminUsersEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/users",
  area: "admin-users",
  access: "staff",
  summary: "Everyone with panel access (by role or by the company e-mail domain), by e-mail, name or last sign-in, searched and filtered by role",
  query: adminUsersQuerySchema,
  success: { status: 200, description: "One page, the matching total and the next cursor", schema: adminUsersResponseSchema },
  errors: [400],
});

export const inviteAdminUserEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/users/invite",
  area: "admin-users",
  access: { roles: ["admin"] },
  summary: `Invite someone with a panel role (admin, finance, support or viewer): a single-use link valid ${INVITATION_TTL_DAYS} days, sent by e-mail`,
  description:
    "Re-inviting an e-mail with a pending invitation replaces it (the old link stops working). Inviting someone who already has access answers 409. Under the hosted provider the invitation goes through its invitations API with the role in public metadata.",
  body: inviteRequestSchema,
  bodyExample: { email: "new.colleague@example.com", role: "viewer" },
  success: { status: 201, description: "The invitation and its link (shown this once)", schema: inviteResponseSchema },
  errors: [400, 409, 415, 502],
  invalidates: STAFF_AREAS,
});

export const listInvitationsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/users/invitations",
  area: "admin-users",
  access: "staff",
  summary: "Invitations not yet accepted nor revoked, newest first",
  success: { status: 200, description: "The invitations", schema: invitationsResponseSchema },
});

export const revokeInvitationEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/admin/users/invitations/{id}",
  area: "admin-users",
  access: { roles: ["admin"] },
  summary: "Revoke an invitation: its link stops working",
  params: userIdParams,
  success: { status: 204, description: "Revoked" },
  errors: [404, 409, 502],
  invalidates: STAFF_AREAS,
});

export const resendInvitationEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/users/invitations/{id}/resend",
  area: "admin-users",
  access: { roles: ["admin"] },
  summary: `Send an invitation again with a new link, valid ${INVITATION_TTL_DAYS} days from now (the old link stops working)`,
  params: userIdParams,
  success: { status: 200, description: "The invitation and its new link (shown this once)", schema: inviteResponseSchema },
  errors: [404, 409, 502],
  invalidates: STAFF_AREAS,
});

export const changeUserRoleEndpoint = defineEndpoint({
  method: "patch",
  path: "/api/admin/users/{id}",
  area: "admin-users",
  access: { roles: ["admin"] },
  stepUp: true,
  summary: "Change a staff member's role (admin, finance, support or viewer)",
  description: "Nobody can change their own role, nor demote the last admin; an admin by the company e-mail domain stays an admin whatever the role (409 with the reason).",
  params: userIdParams,
  body: changeRoleRequestSchema,
  bodyExample: { role: "viewer" },
  success: { status: 200, description: "The staff member after the change", schema: adminUserResponseSchema },
  errors: [400, 404, 409, 415],
  invalidates: STAFF_AREAS,
});

export const removeUserAccessEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/admin/users/{id}/access",
  area: "admin-users",
  access: { roles: ["admin"] },
  stepUp: true,
  summary: "Remove a staff member's panel access: role back to user, every session revoked",
  description: "Nobody can remove their own access, nor the last admin's; access by the company e-mail domain cannot be removed by role (409 with the reason).",
  params: userIdParams,
  success: { status: 200, description: "The account as it is now, and how many sessions were revoked", schema: removeAccessResponseSchema },
  errors: [404, 409],
  invalidates: STAFF_AREAS,
});

export const listUserSessionsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/users/{id}/sessions",
  area: "admin-users",
  access: "staff",
  summary: "A staff member's open sessions (neither revoked nor expired), newest first",
  params: userIdParams,
  success: { status: 200, description: "The sessions", schema: userSessionsResponseSchema },
  errors: [404],
});

export const revokeUserSessionsEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/admin/users/{id}/sessions",
  area: "admin-users",
  access: { roles: ["admin"] },
  summary: "Sign a staff member out everywhere: every open session revoked at once",
  params: userIdParams,
  success: { status: 200, description: "How many sessions were revoked", schema: revokeSessionsResponseSchema },
  errors: [404],
  invalidates: STAFF_AREAS,
});

export const checkInvitationEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/invitations/check",
  area: "admin-users",
  access: "public",
  summary: "What an invitation link grants (the accept page asks before showing its form); changes nothing",
  description: "The token travels in the body, never in a URL the server logs. Unknown: 404; expired, used or revoked: 410 with the reason.",
  body: invitationCheckRequestSchema,
  bodyExample: { token: "the token of the accept link" },
  success: { status: 200, description: "The invited e-mail, role and expiry", schema: invitationCheckResponseSchema },
  errors: [400, 404, 410, 415],
});

export const acceptInvitationEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/invitations/accept",
  area: "admin-users",
  access: "public",
  summary: "Accept an invitation: choose a name and password, get the invited role, and be signed in",
  description: `The link works once. Passwords: at least ${MIN_PASSWORD_LENGTH} characters (12 when NODE_ENV=production), not the e-mail. Expired, used or revoked: 410 and nothing changes. Under the hosted provider, invitations are accepted on its pages (400).`,
  body: acceptInvitationRequestSchema,
  bodyExample: { token: "the token of the accept link", name: "Jane Doe", password: "a long passphrase" },
  success: { status: 200, description: "The new session, as a sign-in answers", schema: signInResponseSchema },
  errors: [400, 404, 410, 415],
  invalidates: ["auth"],
});
