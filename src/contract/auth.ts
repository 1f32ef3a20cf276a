import { z } from "zod";
import { identityTextSchema } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { STAFF_ROLES, STEP_UP_WINDOW_MINUTES } from "./access.ts";

/** Roles a user can hold: a panel role (access.ts: admin, finance, support, viewer) or user (no panel access). */
export const USER_ROLES = [...STAFF_ROLES, "user"] as const;
export const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

/** A user as sign-in answers it. `isAdmin` is computed by the server's one admin rule. */
export const signedInUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  /** Mirrors the hosted provider's "public metadata role". */
  role: userRoleSchema,
  isAdmin: z.boolean(),
});
export type SignedInUser = z.infer<typeof signedInUserSchema>;

/**
 * The signed-in user as `GET /api/auth/me` reports it, with what they may do. `isAdmin`,
 * `panelAccess` and `canWrite` are computed by the server's one rule (src/server/platform/identity/admin-rule.ts);
 * the web never decides them on its own.
 */
export const publicUserSchema = signedInUserSchema.extend({
  /** The panel role in effect (an address at the company domain is an admin whatever its role), or null. */
  staffRole: z.enum(STAFF_ROLES).nullable(),
  /** May open the panel at all: every panel role. */
  panelAccess: z.boolean(),
  /** May change something: every panel role but viewer; each endpoint names the roles it allows (access.ts). */
  canWrite: z.boolean(),
  /** Two-step sign-in is required and this session has no second factor yet: the panel asks for enrolment first. */
  twoStepEnrolmentDue: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const signInRequestSchema = z.strictObject({
  email: z.string().trim().min(1, "email is required").max(320),
  password: z.string().min(1, "password is required").max(1024),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

export const signInResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  user: signedInUserSchema,
  /** Present (true) when two-step sign-in is required and the user has none: the session can only enrol until they set it up. */
  twoStepEnrolmentDue: z.literal(true).optional(),
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** The 403 of the panel's routes to a session that must set up two-step sign-in first. */
export const TWO_STEP_ENROLMENT_MESSAGE = "Two-step sign-in is required for all staff: set it up to continue";

/** How long a second-step challenge works after the password was right. */
export const SIGN_IN_CHALLENGE_TTL_MINUTES = 5;
/** Recovery codes given at enrolment, each usable once. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * What a right password answers for a user with two-step sign-in: no session yet, a challenge to
 * send back with a code from the authenticator app (or a recovery code) within 5 minutes.
 */
export const secondStepRequiredSchema = z.object({
  secondStep: z.object({
    challenge: z.string(),
    expiresAt: z.string(),
    /** What the second step may be answered with: a passkey, the authenticator app (with its recovery codes). */
    factors: z.array(z.enum(["passkey", "totp"])),
  }),
});
export type SecondStepRequired = z.infer<typeof secondStepRequiredSchema>;

/** The answer of `POST /api/auth/sign-in`: a session, or the second step to take first. */
export const signInAnswerSchema = z.union([signInResponseSchema, secondStepRequiredSchema]);
export type SignInAnswer = z.infer<typeof signInAnswerSchema>;

/** Six digits from the authenticator app (spaces typed for readability are dropped). */
const authenticatorCodeSchema = z
  .string()
  .max(20)
  .transform((code) => code.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "must be the 6 digits the authenticator app shows"));

export const secondStepRequestSchema = z
  .strictObject({
    challenge: z.string().min(1, "challenge is required").max(100),
    code: authenticatorCodeSchema.optional(),
    recoveryCode: z.string().trim().min(1, "recoveryCode is required").max(100).optional(),
  })
  .superRefine((body, issues) => {
    if ((body.code === undefined) === (body.recoveryCode === undefined)) issues.addIssue({ code: "custom", path: ["code"], message: "send either code (from the authenticator app) or recoveryCode" });
  });
export type SecondStepRequest = z.infer<typeof secondStepRequestSchema>;

export const twoStepStatusSchema = z.object({
  /** Codes are asked for at sign-in (enrolment confirmed). */
  enrolled: z.boolean(),
  /** Unused recovery codes. */
  recoveryCodesLeft: z.number(),
});
export type TwoStepStatus = z.infer<typeof twoStepStatusSchema>;

export const twoStepSetupResponseSchema = z.object({
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: z.string(),
  /** otpauth://totp/... (RFC 6238, SHA1, 6 digits, 30 s): what the QR code holds. */
  otpauthUri: z.string(),
  /** The QR code of `otpauthUri` as an SVG document. */
  qrSvg: z.string(),
});
export type TwoStepSetupResponse = z.infer<typeof twoStepSetupResponseSchema>;

export const twoStepCodeRequestSchema = z.strictObject({ code: authenticatorCodeSchema });
export type TwoStepCodeRequest = z.infer<typeof twoStepCodeRequestSchema>;

export const twoStepConfirmResponseSchema = z.object({
  /** Shown this once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});
export type TwoStepConfirmResponse = z.infer<typeof twoStepConfirmResponseSchema>;

export const resetTwoStepResponseSchema = z.object({
  /** Sessions of the user that were ended. */
  sessionsEnded: z.number(),
});
export type ResetTwoStepResponse = z.infer<typeof resetTwoStepResponseSchema>;

export const meResponseSchema = z.object({ user: publicUserSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;

/** Public, non-secret facts the web app needs before sign-in. */
export const publicConfigSchema = z.object({
  storefrontUrl: z.string(),
  /** Display name of the configured auth provider ("Clerk" under Clerk). */
  authProviderName: z.string(),
  /**
   * Which sign-in the web app shows (AUTH_PROVIDER): the built-in form, or Clerk's. Always sent;
   * an answer without it (an older server) means the built-in one.
   */
  authProvider: z.enum(["local", "clerk"]).default("local"),
  /** Under Clerk, the instance's publishable key (public by design: it names the Frontend API host). */
  clerkPublishableKey: z.string().optional(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const betaVerifyRequestSchema = z.strictObject({
  password: z.string().max(1024),
});
export type BetaVerifyRequest = z.infer<typeof betaVerifyRequestSchema>;

export const betaVerifyResponseSchema = z.object({ ok: z.literal(true) });
export type BetaVerifyResponse = z.infer<typeof betaVerifyResponseSchema>;

export const signInEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-in",
  area: "auth",
  access: "public",
  summary: "Sign in with e-mail and password (built-in provider); answers a bearer token, or the second step to take",
  description:
    "Repeated failures for one account, or many attempts from one address, answer 429 with Retry-After. For a user with two-step sign-in, a right password answers `secondStep` (a challenge, 5 minutes) and no session: send it to POST /api/auth/sign-in/second-step with a code.",
  body: signInRequestSchema,
  bodyExample: { email: "jane.doe@hki.global", password: "your password" },
  success: { status: 200, description: "The session token, its expiry and the user; or the second step", schema: signInAnswerSchema },
  errors: [400, 401, 415, 429],
});

export const signInSecondStepEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-in/second-step",
  area: "auth",
  access: "public",
  summary: "Finish a two-step sign-in with a code from the authenticator app or a recovery code",
  description: "The challenge works once and for 5 minutes; a code is accepted once. Wrong codes count in the same limits as wrong passwords (per account and per address): 429 with Retry-After.",
  body: secondStepRequestSchema,
  bodyExample: { challenge: "the challenge sign-in answered", code: "123456" },
  success: { status: 200, description: "The session token, its expiry and the user", schema: signInResponseSchema },
  errors: [400, 401, 415, 429],
});

export const twoStepStatusEndpoint = defineEndpoint({
  method: "get",
  path: "/api/auth/two-step",
  area: "auth",
  access: "signed-in",
  summary: "Whether the signed-in user has two-step sign-in, and recovery codes left",
  success: { status: 200, description: "The user's two-step sign-in", schema: twoStepStatusSchema },
});

export const twoStepSetupEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/two-step/setup",
  area: "auth",
  access: "signed-in",
  summary: "Start enrolling an authenticator app: a new secret, its otpauth URI and QR code",
  description: "Not asked for at sign-in until confirmed with a code. Answers 409 when two-step sign-in is on already (turn it off first).",
  success: { status: 200, description: "The new secret (shown this once)", schema: twoStepSetupResponseSchema },
  errors: [400, 409],
  invalidates: ["auth"],
});

export const twoStepConfirmEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/two-step/confirm",
  area: "auth",
  access: "signed-in",
  summary: "Turn two-step sign-in on with a code from the app just set up; answers the recovery codes",
  body: twoStepCodeRequestSchema,
  bodyExample: { code: "123456" },
  success: { status: 200, description: `The ${RECOVERY_CODE_COUNT} recovery codes, shown this once`, schema: twoStepConfirmResponseSchema },
  errors: [400, 401, 409, 415, 429],
  invalidates: ["auth"],
});

export const twoStepDisableEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/auth/two-step",
  area: "auth",
  access: "signed-in",
  summary: "Turn two-step sign-in off, with a current code from the app",
  body: twoStepCodeRequestSchema,
  bodyExample: { code: "123456" },
  success: { status: 204, description: "Two-step sign-in is off; the recovery codes are gone" },
  errors: [400, 401, 409, 415, 429],
  invalidates: ["auth"],
});

/** A second-factor check of the signed-in session: a code of the authenticator app or a recovery code. */
export const stepUpRequestSchema = z
  .strictObject({
    code: authenticatorCodeSchema.optional(),
    recoveryCode: z.string().trim().min(1, "recoveryCode is required").max(100).optional(),
  })
  .superRefine((body, issues) => {
    if ((body.code === undefined) === (body.recoveryCode === undefined)) issues.addIssue({ code: "custom", path: ["code"], message: "send either code (from the authenticator app) or recoveryCode" });
  });
export type StepUpRequest = z.infer<typeof stepUpRequestSchema>;

export const stepUpResponseSchema = z.object({
  /** Until when this session may take dangerous actions without another check. */
  validUntil: z.string(),
});
export type StepUpResponse = z.infer<typeof stepUpResponseSchema>;

export const stepUpEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/step-up",
  area: "auth",
  access: "signed-in",
  summary: `Confirm it is you before a dangerous action: a code checked now lets this session take them for ${STEP_UP_WINDOW_MINUTES} minutes`,
  description:
    "Dangerous actions (their definitions' `stepUp`) answer 403 `step_up_required` without a check in the last 10 minutes. A code is accepted once; wrong codes are limited per user (429). 409 for a user without two-step sign-in, or under Clerk (second factors are Clerk's).",
  body: stepUpRequestSchema,
  bodyExample: { code: "123456" },
  success: { status: 200, description: "Until when the check holds", schema: stepUpResponseSchema },
  errors: [400, 401, 409, 415, 429],
});

export const resetUserTwoStepEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/users/{id}/two-step/reset",
  // Two-step sign-in is the auth area's, whoever resets it; the staff list shows who has it.
  area: "auth",
  access: { roles: ["admin"] },
  summary: "Reset a user's two-step sign-in (lost phone): turned off, recovery codes and passkeys gone, every session ended",
  description: "They sign in with their password alone next time and can enrol again. Answers 409 when they have neither an authenticator app nor a passkey.",
  params: z.object({ id: z.string() }),
  success: { status: 200, description: "How many of their sessions were ended", schema: resetTwoStepResponseSchema },
  errors: [404, 409],
  invalidates: ["admin-users", "audit-log"],
});

export const signOutEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-out",
  area: "auth",
  access: "signed-in",
  summary: "Revoke the session of the bearer token",
  success: { status: 204, description: "Signed out" },
  invalidates: ["auth"],
});

export const meEndpoint = defineEndpoint({
  method: "get",
  path: "/api/auth/me",
  area: "auth",
  access: "signed-in",
  summary: "The signed-in user",
  success: { status: 200, description: "The user of the bearer token", schema: meResponseSchema },
});

export const betaVerifyEndpoint = defineEndpoint({
  method: "post",
  path: "/api/beta/verify",
  area: "auth",
  access: "public",
  summary: "Check the private-beta password",
  description: "Wrong passwords from one address are limited: 429 with Retry-After.",
  body: betaVerifyRequestSchema,
  bodyExample: { password: "the beta password" },
  success: { status: 200, description: "The password is right", schema: betaVerifyResponseSchema },
  errors: [400, 401, 415, 429],
});

// ---- Passkeys (WebAuthn; docs/product.md "Two-step sign-in") ----------------------------------

/** Longest name of a passkey. */
export const PASSKEY_NAME_MAX = 60;

const passkeyNameSchema = identityTextSchema({ max: PASSKEY_NAME_MAX, requiredMessage: "name is required" });

/** Base64url text as WebAuthn's JSON carries binary values. */
const base64url = (max: number) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, "must be base64url");

/** Extension outputs the panel reads (none are asked for but `credProps`); the web sends only these. */
const clientExtensionResultsSchema = z.strictObject({ credProps: z.strictObject({ rk: z.boolean().optional() }).optional() });

/** What `startRegistration` of @simplewebauthn/browser answers: the new credential and its attestation. */
export const passkeyRegistrationResponseSchema = z.strictObject({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  response: z.strictObject({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(65536),
    authenticatorData: base64url(65536).optional(),
    /** "internal", "usb", "hybrid", …; names the panel does not know are dropped. */
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8192).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: clientExtensionResultsSchema.optional(),
});
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponseSchema>;

/** What `startAuthentication` of @simplewebauthn/browser answers: an assertion signed by the passkey. */
export const passkeyAuthenticationResponseSchema = z.strictObject({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  response: z.strictObject({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(65536),
    signature: base64url(8192),
    userHandle: base64url(1024).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: clientExtensionResultsSchema.optional(),
});
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponseSchema>;

const credentialDescriptorSchema = z.object({ id: z.string(), type: z.literal("public-key"), transports: z.array(z.string()).optional() });
const userVerificationSchema = z.enum(["discouraged", "preferred", "required"]);

/** WebAuthn's PublicKeyCredentialCreationOptions as JSON, for `startRegistration`. */
export const passkeyCreationOptionsSchema = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal("public-key") })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: userVerificationSchema.optional(),
      userVerification: userVerificationSchema.optional(),
    })
    .optional(),
  attestation: z.enum(["direct", "enterprise", "indirect", "none"]).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptionsSchema>;

/** WebAuthn's PublicKeyCredentialRequestOptions as JSON, for `startAuthentication`. */
export const passkeyRequestOptionsSchema = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  /** Empty for a sign-in with a passkey alone: the browser offers the passkeys it holds for the site. */
  allowCredentials: z.array(credentialDescriptorSchema).optional(),
  userVerification: userVerificationSchema.optional(),
});
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptionsSchema>;

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({ passkeys: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

export const passkeyRegisterRequestSchema = z.strictObject({ name: passkeyNameSchema, response: passkeyRegistrationResponseSchema });
export type PasskeyRegisterRequest = z.infer<typeof passkeyRegisterRequestSchema>;

export const passkeyRenameRequestSchema = z.strictObject({ name: passkeyNameSchema });

export const passkeySignInRequestSchema = z.strictObject({ response: passkeyAuthenticationResponseSchema });
export type PasskeySignInRequest = z.infer<typeof passkeySignInRequestSchema>;

const signInChallengeSchema = z.string().min(1, "challenge is required").max(100);
export const secondStepPasskeyOptionsRequestSchema = z.strictObject({ challenge: signInChallengeSchema });
export const secondStepPasskeyRequestSchema = z.strictObject({ challenge: signInChallengeSchema, response: passkeyAuthenticationResponseSchema });
export type SecondStepPasskeyRequest = z.infer<typeof secondStepPasskeyRequestSchema>;

const assertionExample = {
  id: "pQh8U1Q0dW1Vm2s3yW0bYgQ",
  rawId: "pQh8U1Q0dW1Vm2s3yW0bYgQ",
  type: "public-key",
  response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4", signature: "MEUCIQ" },
} as const;

export const passkeyListEndpoint = defineEndpoint({
  method: "get",
  path: "/api/auth/passkeys",
  area: "auth",
  access: "signed-in",
  summary: "The signed-in user's passkeys, oldest first, with when each was last used",
  success: { status: 200, description: "The user's passkeys", schema: passkeyListSchema },
});

export const passkeyRegistrationOptionsEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/passkeys/registration-options",
  area: "auth",
  access: "signed-in",
  summary: "Start adding a passkey: WebAuthn creation options with a single-use challenge (5 minutes)",
  description: "A discoverable credential with user verification is asked for, without attestation. Answers 409 under Clerk (second factors are Clerk's).",
  success: { status: 200, description: "Options for navigator.credentials.create (JSON)", schema: passkeyCreationOptionsSchema },
  errors: [409],
});

export const passkeyRegisterEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/passkeys",
  area: "auth",
  access: "signed-in",
  summary: "Add a passkey: the browser's registration answer, verified, stored under the name given",
  description:
    "The answer must be for the challenge of the registration options (once, 5 minutes), made on the panel's origin (PUBLIC_URL) and its host as RP ID, with user verification; otherwise 400 naming `response`. A credential registered already answers 409.",
  body: passkeyRegisterRequestSchema,
  bodyExample: {
    name: "MacBook Touch ID",
    response: {
      id: "pQh8U1Q0dW1Vm2s3yW0bYgQ",
      rawId: "pQh8U1Q0dW1Vm2s3yW0bYgQ",
      type: "public-key",
      response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", attestationObject: "o2NmbXRkbm9uZQ" },
    },
  },
  success: { status: 201, description: "The passkey", schema: passkeySchema },
  errors: [400, 409, 415],
  invalidates: ["auth", "audit-log"],
});

export const passkeyRenameEndpoint = defineEndpoint({
  method: "patch",
  path: "/api/auth/passkeys/{id}",
  area: "auth",
  access: "signed-in",
  summary: "Rename one of the signed-in user's passkeys",
  params: z.object({ id: z.string() }),
  body: passkeyRenameRequestSchema,
  bodyExample: { name: "YubiKey 5C" },
  success: { status: 200, description: "The passkey", schema: passkeySchema },
  errors: [400, 404, 415],
  invalidates: ["auth", "audit-log"],
});

export const passkeyRemoveEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/auth/passkeys/{id}",
  area: "auth",
  access: "signed-in",
  summary: "Remove one of the signed-in user's passkeys",
  description: "Answers 409 when it is the user's last second factor and two-step sign-in is required of them.",
  params: z.object({ id: z.string() }),
  success: { status: 204, description: "The passkey no longer signs in" },
  errors: [404, 409],
  invalidates: ["auth", "audit-log"],
});

export const passkeySignInOptionsEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-in/passkey/options",
  area: "auth",
  access: "public",
  summary: "Start signing in with a passkey alone: WebAuthn request options with a single-use challenge (5 minutes)",
  description: "No e-mail: the browser offers the passkeys it holds for the panel. Counted in the sign-in limit per address (429 with Retry-After).",
  success: { status: 200, description: "Options for navigator.credentials.get (JSON)", schema: passkeyRequestOptionsSchema },
  errors: [400, 429],
});

export const passkeySignInEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-in/passkey",
  area: "auth",
  access: "public",
  summary: "Sign in with a passkey alone (it is both factors): answers a bearer token as the password sign-in does",
  description:
    "The assertion must answer the options' challenge (once, 5 minutes), on the panel's origin and RP ID, with user verification, from a registered passkey whose signature counter moved forward; otherwise 401. Counted in the sign-in limits (per address, and per account and address once the passkey is known): 429 with Retry-After.",
  body: passkeySignInRequestSchema,
  bodyExample: { response: assertionExample },
  success: { status: 200, description: "The session token, its expiry and the user", schema: signInResponseSchema },
  errors: [400, 401, 415, 429],
});

export const secondStepPasskeyOptionsEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-in/second-step/passkey/options",
  area: "auth",
  access: "public",
  summary: "The second step by passkey: WebAuthn request options for the passkeys of the account whose password was right",
  body: secondStepPasskeyOptionsRequestSchema,
  bodyExample: { challenge: "the challenge sign-in answered" },
  success: { status: 200, description: "Options for navigator.credentials.get (JSON)", schema: passkeyRequestOptionsSchema },
  errors: [400, 401, 415, 429],
});

export const secondStepPasskeyEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/sign-in/second-step/passkey",
  area: "auth",
  access: "public",
  summary: "Finish a two-step sign-in with one of the account's passkeys",
  description: "As POST /api/auth/sign-in/second-step, with an assertion for the passkey options' challenge instead of a code. Failures count in the same limits.",
  body: secondStepPasskeyRequestSchema,
  bodyExample: { challenge: "the challenge sign-in answered", response: assertionExample },
  success: { status: 200, description: "The session token, its expiry and the user", schema: signInResponseSchema },
  errors: [400, 401, 415, 429],
});

export const stepUpPasskeyOptionsEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/step-up/passkey/options",
  area: "auth",
  access: "signed-in",
  summary: "A step-up by passkey: WebAuthn request options that only the signed-in user's passkeys answer",
  description: "409 for a user without a passkey, or under Clerk. The options' challenge is answered at POST /api/auth/step-up/passkey.",
  success: { status: 200, description: "Options for navigator.credentials.get (JSON)", schema: passkeyRequestOptionsSchema },
  errors: [401, 409, 415],
});

export const stepUpPasskeyEndpoint = defineEndpoint({
  method: "post",
  path: "/api/auth/step-up/passkey",
  area: "auth",
  access: "signed-in",
  summary: `Confirm it is you with a passkey before a dangerous action: this session may take them for ${STEP_UP_WINDOW_MINUTES} minutes`,
  description: "As POST /api/auth/step-up, with an assertion for the step-up options' challenge instead of a code. A refused assertion answers 401 and is audited.",
  body: passkeySignInRequestSchema,
  bodyExample: { response: assertionExample },
  success: { status: 200, description: "Until when the check holds", schema: stepUpResponseSchema },
  errors: [400, 401, 409, 415],
});
