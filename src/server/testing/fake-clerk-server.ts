import { type KeyObject, generateKeyPairSync, randomBytes, sign as cryptoSign } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT } from "jose";

/**
 * A local stand-in for one Clerk instance, for tests (the fake Stripe's sibling): one HTTP server
 * answering both of Clerk's APIs, in memory.
 *
 * - The Backend API the server calls with the secret key (CLERK_API_URL): JWKS, users (read,
 *   delete), session revocation, invitations (create, list, revoke).
 * - The Frontend API subset a password sign-in through `@clerk/clerk-js` uses, as the browser calls
 *   it on the instance's Frontend API host (the host in the publishable key; Playwright routes that
 *   host here): environment, client, sign-ins with the password factor, session touch, session
 *   tokens, sign-out (all sessions of the client, or one). The client is the `__client` cookie of
 *   the Frontend API host, as on a production instance.
 *
 * Session tokens are RS256 JWTs signed with the key the JWKS publishes, with the claims Clerk puts
 * in them (`iss` the Frontend API origin, `azp` the calling page's origin, `sid`, `sub`, a short
 * `exp`: `tokenTtlSeconds`). Request bodies, response envelopes (`{ response, client }`) and error
 * shapes (`{ errors: [{ code, message, long_message, meta }] }`) follow Clerk's APIs.
 */

export interface FakeClerkUserInput {
  id?: string;
  email: string;
  password: string;
  /** Public metadata `role` (the admin rule reads "admin" / "viewer"). */
  role?: string;
  firstName?: string | null;
  lastName?: string | null;
  /** Whether that address is verified (default true). */
  emailVerified?: boolean;
  /** More addresses of the account (never its primary one). */
  otherEmails?: Array<{ email: string; verified: boolean }>;
  /** False: the account has no primary address at all (default true: `email` is it). */
  hasPrimary?: boolean;
}

export interface FakeClerkEmail {
  id: string;
  email: string;
  verified: boolean;
}

export interface FakeClerkUser {
  id: string;
  /** The address given first (the primary one unless `primaryEmailId` is null). */
  email: string;
  emails: FakeClerkEmail[];
  primaryEmailId: string | null;
  password: string;
  publicMetadata: Record<string, unknown>;
  firstName: string | null;
  lastName: string | null;
  createdAt: number;
  lastSignInAt: number | null;
}

export type FakeClerkSessionStatus = "active" | "ended" | "removed" | "revoked";

export interface FakeClerkSession {
  id: string;
  userId: string;
  clientId: string;
  status: FakeClerkSessionStatus;
  createdAt: number;
  lastActiveAt: number;
  lastToken: string | null;
}

export interface FakeClerkToken {
  sessionId: string;
  jwt: string;
  iat: number;
  exp: number;
  azp: string;
}

export interface FakeClerkInvitation {
  id: string;
  email_address: string;
  public_metadata: Record<string, unknown>;
  redirect_url: string | null;
  status: "pending" | "accepted" | "revoked";
  url: string;
  created_at: number;
  updated_at: number;
}

export interface FakeClerkServer {
  /** e.g. "http://127.0.0.1:54321": CLERK_API_URL, and where the Frontend API host is routed to. */
  url: string;
  /** The Frontend API host the browser calls, e.g. "clerk.hki.test". */
  frontendApiHost: string;
  /** `https://<frontendApiHost>`: the Frontend API origin, and the issuer (`iss`) of session tokens. */
  issuer: string;
  /** A production publishable key naming the Frontend API host (`pk_live_` + base64("<host>$")). */
  publishableKey: string;
  secretKey: string;
  /** Lifetime of the session tokens issued from now on. */
  tokenTtlSeconds: number;
  /** Every Backend API call answers this status while it is set (Clerk refusing or failing us). */
  backendFailure: number | null;
  users: Map<string, FakeClerkUser>;
  sessions: Map<string, FakeClerkSession>;
  /** Every session token issued, oldest first. */
  tokens: FakeClerkToken[];
  invitations: Map<string, FakeClerkInvitation>;
  /** Every request received: which API, method (after `_method`), path. */
  requests: Array<{ api: "frontend" | "backend"; method: string; path: string }>;
  addUser(input: FakeClerkUserInput): FakeClerkUser;
  /** A session token as this instance signs them (for server-side tests), for a new active session unless `sid` is given. */
  sessionToken(userId: string, options: { azp: string; sid?: string; ttlSeconds?: number }): Promise<string>;
  /**
   * Any header and claims, signed RS256 with the instance's key whatever the header says (for tests
   * of what the server refuses: foreign key ids, other algorithms, wrong claims).
   */
  signJwt(header: object, claims: object): string;
  /** The key id of the instance's signing key (the JWKS's only key). */
  keyId: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

interface FakeClient {
  id: string;
  signInId: string | null;
  lastActiveSessionId: string | null;
  createdAt: number;
  updatedAt: number;
}

interface FakeSignIn {
  id: string;
  clientId: string;
  identifier: string | null;
  userId: string | null;
  status: "needs_identifier" | "needs_first_factor" | "complete";
  createdSessionId: string | null;
  attempts: number;
  abandonAt: number;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string | string[]>;
}

const KEY_ID = "ins_fake_key_1";
const CLIENT_COOKIE = "__client";
const DAY_MS = 86_400_000;

const clerkError = (status: number, code: string, message: string, longMessage: string, paramName?: string): Answer => ({
  status,
  body: { errors: [{ code, message, long_message: longMessage, meta: paramName ? { param_name: paramName } : {} }] },
});

const notFound = (what = "resource"): Answer => clerkError(404, "resource_not_found", "not found", `The ${what} could not be found.`);

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}

/** The environment a password-only production instance answers: e-mail + password, no second factor. */
function environmentJson(applicationName: string): Json {
  const attribute = (enabled: boolean, extra: Json = {}) => ({
    enabled,
    required: false,
    used_for_first_factor: false,
    first_factors: [],
    used_for_second_factor: false,
    second_factors: [],
    verifications: [],
    verify_at_sign_up: false,
    ...extra,
  });
  return {
    object: "environment",
    id: "env_fake",
    auth_config: { object: "auth_config", id: "aac_fake", single_session_mode: true, claimed_at: null, reverification: true, preferred_channels: {} },
    display_config: {
      object: "display_config",
      id: "display_config_fake",
      instance_environment_type: "production",
      application_name: applicationName,
      branded: true,
      show_devmode_warning: false,
      preferred_sign_in_strategy: "password",
      logo_image_url: "",
      favicon_image_url: "",
      home_url: "",
      sign_in_url: "",
      sign_up_url: "",
      user_profile_url: "",
      waitlist_url: "",
      after_sign_in_url: "",
      after_sign_up_url: "",
      after_sign_out_one_url: "",
      after_sign_out_all_url: "",
      after_switch_session_url: "",
      after_join_waitlist_url: "",
      organization_profile_url: "",
      create_organization_url: "",
      after_leave_organization_url: "",
      after_create_organization_url: "",
      support_email: "",
      terms_url: "",
      privacy_policy_url: "",
      captcha_public_key: null,
      captcha_widget_type: null,
      captcha_public_key_invisible: null,
      captcha_provider: null,
      captcha_oauth_bypass: [],
      theme: {
        buttons: { font_color: "#ffffff", font_family: "", font_weight: "" },
        general: { color: "#111827", padding: "", font_color: "#111827", font_family: "", border_radius: "", box_shadow: "", background_color: "#ffffff", label_font_weight: "" },
        accounts: { background_color: "#ffffff" },
      },
    },
    user_settings: {
      attributes: {
        email_address: attribute(true, { required: true, used_for_first_factor: true, first_factors: ["email_code"], verifications: ["email_code"], verify_at_sign_up: true }),
        phone_number: attribute(false),
        username: attribute(false),
        web3_wallet: attribute(false),
        first_name: attribute(false),
        last_name: attribute(false),
        password: attribute(true, { required: true }),
        authenticator_app: attribute(false),
        backup_code: attribute(false),
        passkey: attribute(false),
      },
      // What the instance of the marketplace offers besides e-mail and password: Google, and open
      // sign-up. The panel's form must hide both (its `appearance`), so the e2e can see it does.
      social: { oauth_google: { enabled: true, required: false, authenticatable: true, block_email_subaddresses: false, strategy: "oauth_google", name: "Google", logo_url: "" } },
      sign_in: { second_factor: { required: false, enabled: false } },
      sign_up: { captcha_enabled: false, captcha_widget_type: "invisible", custom_action_required: false, progressive: true, mode: "public", legal_consent_enabled: false },
      password_settings: {
        disable_hibp: true,
        min_length: 8,
        max_length: 72,
        require_special_char: false,
        require_numbers: false,
        require_uppercase: false,
        require_lowercase: false,
        show_zxcvbn: false,
        min_zxcvbn_strength: 0,
        enforce_hibp_on_sign_in: false,
        allowed_special_characters: "",
      },
      passkey_settings: { allow_autofill: false, show_sign_in_button: false },
      enterprise_sso: { enabled: false },
      saml: { enabled: false },
      actions: { delete_self: false, create_organization: false },
    },
    organization_settings: {
      enabled: false,
      max_allowed_memberships: 0,
      force_organization_selection: false,
      actions: { admin_delete: false },
      domains: { enabled: false, enrollment_modes: [], default_role: null },
      slug: { disabled: true },
    },
    commerce_settings: { billing: { stripe_publishable_key: "", organization: { enabled: false, has_paid_plans: false }, user: { enabled: false, has_paid_plans: false } } },
    api_keys_settings: { enabled: false },
    maintenance_mode: false,
    client_debug_mode: false,
    partitioned_cookies: false,
  };
}

export interface FakeClerkOptions {
  frontendApiHost?: string;
  tokenTtlSeconds?: number;
  secretKey?: string;
  applicationName?: string;
  /** The instance's time, ms (default: the real one); tests on a fixed clock pass theirs. */
  now?: () => number;
}

export async function startFakeClerk(options: FakeClerkOptions = {}): Promise<FakeClerkServer> {
  const now = options.now ?? Date.now;
  const frontendApiHost = options.frontendApiHost ?? "clerk.hki.test";
  const issuer = `https://${frontendApiHost}`;
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 }) as { privateKey: KeyObject; publicKey: KeyObject };
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: KEY_ID, use: "sig", alg: "RS256" };
  const clients = new Map<string, FakeClient>();
  const signIns = new Map<string, FakeSignIn>();
  const environment = environmentJson(options.applicationName ?? "HKI Global Admin");

  const state: FakeClerkServer = {
    url: "",
    frontendApiHost,
    issuer,
    publishableKey: `pk_live_${Buffer.from(`${frontendApiHost}$`).toString("base64")}`,
    secretKey: options.secretKey ?? "sk_live_fakeClerkSecretKey0123456789",
    tokenTtlSeconds: options.tokenTtlSeconds ?? 60,
    backendFailure: null,
    users: new Map(),
    sessions: new Map(),
    tokens: [],
    invitations: new Map(),
    requests: [],
    addUser(input) {
      const id = input.id ?? newId("user");
      const first: FakeClerkEmail = { id: newId("idn"), email: input.email.toLowerCase(), verified: input.emailVerified ?? true };
      const user: FakeClerkUser = {
        id,
        email: first.email,
        emails: [first, ...(input.otherEmails ?? []).map((e) => ({ id: newId("idn"), email: e.email.toLowerCase(), verified: e.verified }))],
        primaryEmailId: input.hasPrimary === false ? null : first.id,
        password: input.password,
        publicMetadata: input.role ? { role: input.role } : {},
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        createdAt: now(),
        lastSignInAt: null,
      };
      state.users.set(id, user);
      return user;
    },
    async sessionToken(userId, { azp, sid, ttlSeconds }) {
      const session = sid ? state.sessions.get(sid) : createSession(userId, newClient().id);
      if (!session) throw new Error(`no session ${sid}`);
      return mintToken(session, azp, ttlSeconds);
    },
    signJwt(header, claims) {
      const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString("base64url");
      const input = `${encode(header)}.${encode(claims)}`;
      return `${input}.${cryptoSign("RSA-SHA256", Buffer.from(input), privateKey).toString("base64url")}`;
    },
    keyId: KEY_ID,
    close: async () => undefined,
  };

  function newClient(): FakeClient {
    const client: FakeClient = { id: newId("client"), signInId: null, lastActiveSessionId: null, createdAt: now(), updatedAt: now() };
    clients.set(client.id, client);
    return client;
  }

  function createSession(userId: string, clientId: string): FakeClerkSession {
    const at = now();
    const session: FakeClerkSession = { id: newId("sess"), userId, clientId, status: "active", createdAt: at, lastActiveAt: at, lastToken: null };
    state.sessions.set(session.id, session);
    return session;
  }

  async function mintToken(session: FakeClerkSession, azp: string, ttlSeconds = state.tokenTtlSeconds): Promise<string> {
    const iat = Math.floor(now() / 1000);
    const exp = iat + ttlSeconds;
    const jwt = await new SignJWT({ azp, sid: session.id, fva: [0, -1], v: 2 })
      .setProtectedHeader({ alg: "RS256", kid: KEY_ID, typ: "JWT" })
      .setIssuer(issuer)
      .setSubject(session.userId)
      .setIssuedAt(iat)
      .setNotBefore(iat - 10)
      .setExpirationTime(exp)
      .sign(privateKey);
    session.lastToken = jwt;
    state.tokens.push({ sessionId: session.id, jwt, iat, exp, azp });
    return jwt;
  }

  // ---- JSON shapes -------------------------------------------------------------------------

  const emailJson = (user: FakeClerkUser, email: FakeClerkEmail) => ({
    object: "email_address",
    id: email.id,
    email_address: email.email,
    reserved: false,
    verification: email.verified
      ? { object: "verification_email_code", status: "verified", strategy: "email_code", attempts: 1, expire_at: null }
      : { object: "verification_email_code", status: "unverified", strategy: "email_code", attempts: 0, expire_at: null },
    linked_to: [],
    matches_sso_connection: false,
    created_at: user.createdAt,
    updated_at: user.createdAt,
  });

  /** A user as both APIs show it (the Backend API adds private and unsafe metadata, empty here). */
  const userJson = (user: FakeClerkUser) => ({
    object: "user",
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    username: null,
    image_url: "",
    has_image: false,
    primary_email_address_id: user.primaryEmailId,
    primary_phone_number_id: null,
    primary_web3_wallet_id: null,
    email_addresses: user.emails.map((e) => emailJson(user, e)),
    phone_numbers: [],
    web3_wallets: [],
    external_accounts: [],
    enterprise_accounts: [],
    passkeys: [],
    saml_accounts: [],
    organization_memberships: [],
    password_enabled: true,
    two_factor_enabled: false,
    totp_enabled: false,
    backup_code_enabled: false,
    public_metadata: user.publicMetadata,
    private_metadata: {},
    unsafe_metadata: {},
    external_id: null,
    create_organization_enabled: false,
    delete_self_enabled: false,
    last_sign_in_at: user.lastSignInAt,
    created_at: user.createdAt,
    updated_at: user.createdAt,
  });

  const sessionJson = (session: FakeClerkSession) => {
    const user = state.users.get(session.userId);
    return {
      object: "session",
      id: session.id,
      status: session.status,
      expire_at: session.createdAt + 7 * DAY_MS,
      abandon_at: session.createdAt + 30 * DAY_MS,
      last_active_at: session.lastActiveAt,
      last_active_organization_id: null,
      last_active_token: session.lastToken ? { object: "token", jwt: session.lastToken } : null,
      actor: null,
      tasks: null,
      factor_verification_age: [0, -1],
      user: user ? userJson(user) : null,
      public_user_data: user ? { first_name: user.firstName, last_name: user.lastName, image_url: "", has_image: false, identifier: user.email, user_id: user.id } : null,
      created_at: session.createdAt,
      updated_at: session.lastActiveAt,
    };
  };

  const signInJson = (signIn: FakeSignIn) => {
    const user = signIn.userId ? state.users.get(signIn.userId) : undefined;
    return {
      object: "sign_in",
      id: signIn.id,
      status: signIn.status,
      identifier: signIn.identifier,
      supported_identifiers: ["email_address"],
      supported_first_factors: user ? [{ strategy: "password" }] : [],
      supported_second_factors: [],
      first_factor_verification:
        signIn.status === "complete"
          ? { object: "verification_password", status: "verified", strategy: "password", attempts: signIn.attempts, expire_at: null, error: null }
          : signIn.attempts > 0
            ? { object: "verification_password", status: "unverified", strategy: "password", attempts: signIn.attempts, expire_at: null, error: null }
            : null,
      second_factor_verification: null,
      user_data: user ? { first_name: user.firstName, last_name: user.lastName, image_url: "", has_image: false } : null,
      created_session_id: signIn.createdSessionId,
      abandon_at: signIn.abandonAt,
    };
  };

  const clientJson = (client: FakeClient) => {
    const sessions = [...state.sessions.values()].filter((s) => s.clientId === client.id && s.status === "active");
    const signIn = client.signInId ? signIns.get(client.signInId) : undefined;
    return {
      object: "client",
      id: client.id,
      sessions: sessions.map(sessionJson),
      sign_in: signIn && signIn.status !== "complete" ? signInJson(signIn) : null,
      sign_up: null,
      last_active_session_id: sessions.some((s) => s.id === client.lastActiveSessionId) ? client.lastActiveSessionId : null,
      last_authentication_strategy: null,
      captcha_bypass: false,
      cookie_expires_at: client.createdAt + 365 * DAY_MS,
      created_at: client.createdAt,
      updated_at: client.updatedAt,
    };
  };

  const withClient = (client: FakeClient, response: unknown): Answer => ({ status: 200, body: { response, client: clientJson(client) } });

  // ---- Frontend API --------------------------------------------------------------------------

  const findUserByEmail = (email: string) => [...state.users.values()].find((u) => u.emails.some((e) => e.email === email.trim().toLowerCase()));

  /** The password factor: on success the session is created and made the client's active one. */
  function attemptPassword(client: FakeClient, signIn: FakeSignIn, password: string | undefined): Answer | null {
    const user = signIn.userId ? state.users.get(signIn.userId) : undefined;
    if (!user) return clerkError(422, "form_identifier_not_found", "Couldn't find your account.", "Couldn't find your account.", "identifier");
    signIn.attempts += 1;
    if (!password) return clerkError(422, "form_param_nil", "is missing", "Enter password.", "password");
    if (password !== user.password)
      return clerkError(422, "form_password_incorrect", "Password is incorrect. Try again, or use another method.", "Password is incorrect. Try again, or use another method.", "password");
    const session = createSession(user.id, client.id);
    user.lastSignInAt = now();
    signIn.status = "complete";
    signIn.createdSessionId = session.id;
    client.lastActiveSessionId = session.id;
    client.updatedAt = now();
    return null;
  }

  async function frontendApi(method: string, path: string, form: URLSearchParams, client: FakeClient, origin: string): Promise<Answer> {
    if (path === "/v1/environment" && (method === "GET" || method === "PATCH")) return { status: 200, body: environment };
    if (path === "/v1/client") {
      if (method === "GET" || method === "POST" || method === "PUT") return { status: 200, body: { response: clientJson(client), client: clientJson(client) } };
      if (method === "DELETE") {
        for (const s of state.sessions.values()) if (s.clientId === client.id && s.status === "active") s.status = "ended";
        client.lastActiveSessionId = null;
        return { status: 200, body: { response: { ...clientJson(client), sessions: [] }, client: clientJson(client) } };
      }
    }
    // Sign-out of every session of the client (what clerk-js's signOut() does by default).
    if (path === "/v1/client/sessions" && method === "DELETE") {
      for (const s of state.sessions.values()) if (s.clientId === client.id && s.status === "active") s.status = "removed";
      client.lastActiveSessionId = null;
      client.updatedAt = now();
      return withClient(client, clientJson(client));
    }
    if (path === "/v1/client/sign_ins" && method === "POST") {
      const identifier = form.get("identifier");
      const user = identifier ? findUserByEmail(identifier) : undefined;
      if (identifier && !user) return clerkError(422, "form_identifier_not_found", "Couldn't find your account.", "Couldn't find your account.", "identifier");
      const signIn: FakeSignIn = {
        id: newId("sia"),
        clientId: client.id,
        identifier: identifier ?? null,
        userId: user?.id ?? null,
        status: identifier ? "needs_first_factor" : "needs_identifier",
        createdSessionId: null,
        attempts: 0,
        abandonAt: now() + DAY_MS,
      };
      signIns.set(signIn.id, signIn);
      client.signInId = signIn.id;
      if (form.get("strategy") === "password" || form.has("password")) {
        const refused = attemptPassword(client, signIn, form.get("password") ?? undefined);
        if (refused) return refused;
      }
      return withClient(client, signInJson(signIn));
    }
    const signInPath = /^\/v1\/client\/sign_ins\/([^/]+)(?:\/(attempt_first_factor|prepare_first_factor|reset))?$/.exec(path);
    if (signInPath) {
      const signIn = signIns.get(signInPath[1]!);
      if (!signIn || signIn.clientId !== client.id) return notFound("sign in");
      const action = signInPath[2];
      if (!action && method === "GET") return withClient(client, signInJson(signIn));
      if (action === "prepare_first_factor" && method === "POST") return withClient(client, signInJson(signIn));
      if (action === "attempt_first_factor" && method === "POST") {
        if (form.get("strategy") !== "password") return clerkError(422, "strategy_for_user_invalid", "is invalid", "Only the password strategy is available.", "strategy");
        const refused = attemptPassword(client, signIn, form.get("password") ?? undefined);
        if (refused) return refused;
        return withClient(client, signInJson(signIn));
      }
    }
    const sessionPath = /^\/v1\/client\/sessions\/([^/]+)(?:\/(touch|tokens|end|remove))?$/.exec(path);
    if (sessionPath) {
      const session = state.sessions.get(sessionPath[1]!);
      if (!session || session.clientId !== client.id) return notFound("session");
      const action = sessionPath[2];
      if (!action && method === "GET") return withClient(client, sessionJson(session));
      if (session.status !== "active") return clerkError(401, "signed_out", "Signed out", "You are signed out.");
      if (action === "touch" && method === "POST") {
        session.lastActiveAt = now();
        client.lastActiveSessionId = session.id;
        client.updatedAt = now();
        return withClient(client, sessionJson(session));
      }
      if (action === "tokens" && method === "POST") return { status: 200, body: { object: "token", jwt: await mintToken(session, origin) } };
      if ((action === "end" || action === "remove") && method === "POST") {
        session.status = action === "end" ? "ended" : "removed";
        if (client.lastActiveSessionId === session.id) client.lastActiveSessionId = null;
        return withClient(client, sessionJson(session));
      }
    }
    return notFound();
  }

  // ---- Backend API ---------------------------------------------------------------------------

  function backendApi(method: string, path: string, body: Json, query: URLSearchParams): Answer {
    if (path === "/v1/jwks" && method === "GET") return { status: 200, body: { keys: [jwk] } };
    const user = /^\/v1\/users\/([^/]+)$/.exec(path);
    if (user) {
      const found = state.users.get(decodeURIComponent(user[1]!));
      if (!found) return notFound("user");
      if (method === "GET") return { status: 200, body: userJson(found) };
      if (method === "DELETE") {
        state.users.delete(found.id);
        for (const s of state.sessions.values()) if (s.userId === found.id && s.status === "active") s.status = "revoked";
        return { status: 200, body: { object: "user", id: found.id, deleted: true } };
      }
    }
    if (path === "/v1/sessions" && method === "GET") {
      const userId = query.get("user_id");
      return { status: 200, body: [...state.sessions.values()].filter((s) => !userId || s.userId === userId).map(sessionJson) };
    }
    const revoke = /^\/v1\/sessions\/([^/]+)\/revoke$/.exec(path);
    if (revoke && method === "POST") {
      const session = state.sessions.get(decodeURIComponent(revoke[1]!));
      if (!session) return notFound("session");
      session.status = "revoked";
      return { status: 200, body: sessionJson(session) };
    }
    if (path === "/v1/invitations" && method === "GET") {
      const status = query.get("status");
      return { status: 200, body: [...state.invitations.values()].filter((i) => !status || i.status === status) };
    }
    if (path === "/v1/invitations" && method === "POST") {
      const email = typeof body.email_address === "string" ? body.email_address.trim().toLowerCase() : "";
      if (!email) return clerkError(422, "form_param_nil", "is missing", "Enter email address.", "email_address");
      if (findUserByEmail(email)) return clerkError(422, "form_identifier_exists", "That email address is taken.", "That email address is taken. Please try another.", "email_address");
      const pending = [...state.invitations.values()].find((i) => i.email_address === email && i.status === "pending");
      if (pending && body.ignore_existing !== true)
        return clerkError(422, "duplicate_record", "duplicate invitation", "There are already pending invitations for the following email addresses: " + email, "email_address");
      const at = now();
      const id = newId("inv");
      const invitation: FakeClerkInvitation = {
        id,
        email_address: email,
        public_metadata: typeof body.public_metadata === "object" && body.public_metadata !== null ? (body.public_metadata as Record<string, unknown>) : {},
        redirect_url: typeof body.redirect_url === "string" ? body.redirect_url : null,
        status: "pending",
        url: `${issuer}/v1/tickets/accept?ticket=${id}`,
        created_at: at,
        updated_at: at,
      };
      state.invitations.set(id, invitation);
      return { status: 200, body: { object: "invitation", ...invitation, revoked: false } };
    }
    const revokeInvitation = /^\/v1\/invitations\/([^/]+)\/revoke$/.exec(path);
    if (revokeInvitation && method === "POST") {
      const invitation = state.invitations.get(decodeURIComponent(revokeInvitation[1]!));
      if (!invitation) return notFound("invitation");
      if (invitation.status !== "pending") return clerkError(400, "invitation_already_" + invitation.status, "already " + invitation.status, `This invitation was already ${invitation.status}.`);
      invitation.status = "revoked";
      invitation.updated_at = now();
      return { status: 200, body: { object: "invitation", ...invitation, revoked: true } };
    }
    return notFound();
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://fake-clerk.invalid");
        const path = url.pathname;
        const text = Buffer.concat(chunks).toString("utf8");
        const origin = typeof req.headers.origin === "string" ? req.headers.origin : "";
        let answer: Answer;
        const authorization = req.headers.authorization;
        const isBackend = authorization !== undefined || !/^\/v1\/(client|environment)(\/|$)/.test(path);
        if (req.method === "OPTIONS") {
          answer = { status: 204, body: null };
        } else if (isBackend) {
          const method = req.method ?? "GET";
          state.requests.push({ api: "backend", method, path });
          if (authorization !== `Bearer ${state.secretKey}`) answer = clerkError(401, "authentication_invalid", "Unauthorized request", "The provided Clerk Secret Key is invalid.");
          else if (state.backendFailure) answer = clerkError(state.backendFailure, "unavailable", "unavailable", "The fake Clerk was told to fail.");
          else {
            let body: Json = {};
            try {
              body = text ? (JSON.parse(text) as Json) : {};
            } catch {
              body = {};
            }
            answer = backendApi(method, path, body, url.searchParams);
          }
        } else {
          // clerk-js sends only GET and POST; other methods travel in `_method`.
          const method = (url.searchParams.get("_method") ?? req.method ?? "GET").toUpperCase();
          state.requests.push({ api: "frontend", method, path });
          let client = clients.get(cookieValue(req.headers.cookie, CLIENT_COOKIE) ?? "");
          const headers: Record<string, string | string[]> = {};
          if (!client) {
            client = newClient();
            headers["set-cookie"] = `${CLIENT_COOKIE}=${client.id}; Path=/; Max-Age=31536000; HttpOnly; Secure; SameSite=None`;
          }
          answer = await frontendApi(method, path, new URLSearchParams(text), client, origin);
          answer.headers = { ...headers, ...answer.headers };
        }
        res.statusCode = answer.status;
        if (origin) {
          // The Frontend API answers the instance's own pages with their cookies (credentials: include).
          res.setHeader("access-control-allow-origin", origin);
          res.setHeader("access-control-allow-credentials", "true");
          res.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
          res.setHeader("access-control-allow-headers", "content-type, authorization");
          res.setHeader("vary", "Origin");
        }
        res.setHeader("cache-control", "no-store");
        for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
        if (answer.body === null) {
          res.end();
          return;
        }
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(answer.body));
      })().catch((err: unknown) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ errors: [{ code: "internal", message: String(err), long_message: String(err) }] }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
