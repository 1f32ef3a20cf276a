import type { Context, Hono } from "hono";
import type { EndpointDefinition, EndpointResult, ParsedInput } from "../../../contract/endpoint.ts";
import type { AppEnv } from "./app-env.ts";
import { bearerToken } from "./auth-middleware.ts";
import type { ActingUser, Actor } from "../identity/actor.ts";
import type { ApiKeyPrincipal } from "../identity/api-keys.ts";
import { forbidden, unauthorized } from "../http/http-error.ts";
import { accessRefusal, allowedRoles, isStaffAccess } from "../../../contract/access.ts";
import { staffRoleOf } from "../identity/admin-rule.ts";
import { strictBodyProblem } from "../http/strict-body.ts";
import { requestHeader, setAnswerHeader } from "../http/exchange-headers.ts";
import { parseWith, readJsonBody, readQuery, readSignedBody, refuseBody } from "../http/validate.ts";
import type { ReadCache } from "../db/read-cache.ts";

/**
 * The header record of a JSON answer, as Hono's c.json() sets it: a new object per answer, because
 * node:http's adapter writes the answer's Content-Length (and the response class the security
 * headers) into the record it is given.
 */
const jsonContentType = (): Record<string, string> => ({ "Content-Type": "application/json" });

/** What a handler gets besides its parsed input: the request's facts, read one way everywhere. */
export interface RequestFacts<D extends EndpointDefinition = EndpointDefinition> {
  /** The signed-in user: always there unless the endpoint is public (then null without a token) or called with an API key (null). */
  user: D["access"] extends "public" | "api-key" ? ActingUser | null : ActingUser;
  /** The user with the request's origin, for services' rules and audit rows. */
  actor: D["access"] extends "public" | "api-key" ? Actor | null : Actor;
  requestId: string;
  clientIp: string;
  userAgent: string | null;
  /** "HEAD" when a GET endpoint is asked for its headers only (Hono runs the GET handler and drops the body). */
  method: string;
  /** The API key the request came with (access "api-key" endpoints; null elsewhere). */
  apiKey: ApiKeyPrincipal | null;
  /** The raw bearer token (sign-out needs it). */
  bearerToken: string | null;
  /** The URL the request came to. Its origin is whatever the client sent as Host: links start with config.publicUrl instead. */
  url: URL;
}

export type EndpointHandler<D extends EndpointDefinition> = (input: ParsedInput<D>, request: RequestFacts<D>) => Promise<EndpointResult<D>> | EndpointResult<D>;

/** Hono's path syntax for an OpenAPI-style path: "/api/x/{id}" -> "/api/x/:id". */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/**
 * Registers handlers from their definitions, and only so: the input is read by the project's
 * rules (http/validate.ts: 415 for a body that is not JSON, an empty body taken as {}, a repeated
 * query key refused, NUL characters refused, unknown body keys refused, a body refused where the
 * definition has none, a 400 naming each field at fault), the handler gets it parsed (a signed
 * body as received, for its handler to verify first), and its typed result is answered with the
 * definition's success status.
 */
export class EndpointRouter {
  readonly served: EndpointDefinition[] = [];

  constructor(
    private readonly app: Hono<AppEnv>,
    private readonly readCache: ReadCache,
    /** The check of a dangerous action's recent second factor (identity/step-up.ts), for definitions with `stepUp`. */
    private readonly stepUp?: (user: ActingUser, bearerToken: string | null) => Promise<void>,
  ) {}

  handle<D extends EndpointDefinition>(definition: D, handler: EndpointHandler<D>): void {
    // A body that accepts unknown keys is refused here, at start-up (http/strict-body.ts).
    const bodyProblem = definition.body ? strictBodyProblem(definition.body) : null;
    if (bodyProblem) throw new Error(`${definition.method.toUpperCase()} ${definition.path}: ${bodyProblem}`);
    // A signed body is the signer's credential: only a public endpoint takes one, and never beside a parsed body.
    if (definition.signedBody && (definition.body || definition.access !== "public"))
      throw new Error(`${definition.method.toUpperCase()} ${definition.path}: a signed body is for public endpoints without a body schema`);
    const rolesProblem = staffRolesProblem(definition);
    if (rolesProblem) throw new Error(`${definition.method.toUpperCase()} ${definition.path}: ${rolesProblem}`);
    this.served.push(definition);
    // Every role may call a "staff" endpoint: the prefix guard has already refused anyone without one.
    const checkRole = isStaffAccess(definition.access) && definition.access !== "staff";
    const stepUp = definition.stepUp ? this.stepUp : undefined;
    if (definition.stepUp && definition.method === "get") throw new Error(`GET ${definition.path}: a read is never a dangerous action (stepUp)`);
    const keptAnswerKey = answerKeyOf(definition);
    this.app.on(definition.method.toUpperCase(), honoPath(definition.path), async (c) => {
      c.set("route", definition.path);
      // Before anything can fail: a 401 or 400 of an endpoint that needs a token is not cached either.
      if (definition.access !== "public") setAnswerHeader(c, "Cache-Control", "no-store");
      const user = c.get("user") ?? null;
      // An API-key endpoint's key is checked by its guard before this (request/api-key-guard.ts).
      if (definition.access !== "public" && definition.access !== "api-key" && !user) throw unauthorized();
      // The roles the definition names, before reading any input (src/contract/access.ts).
      if (checkRole) {
        const refusal = accessRefusal(definition.access, staffRoleOf(user!));
        if (refusal !== undefined) throw forbidden(refusal);
      }
      // A dangerous action: a second-factor check in the last 10 minutes, before reading the input.
      if (stepUp && user) await stepUp(user, bearerToken(requestHeader(c, "authorization")));
      // Query before body: a malformed query is reported even when the body is malformed too.
      const query = definition.query ? readQuery(c, definition.query) : undefined;
      const params = definition.params ? parseWith(definition.params, c.req.param()) : undefined;
      // An endpoint without a body schema takes none: the same rules hold ({} or nothing; 400, 415).
      // A signed body reaches its handler as received, to be verified before it is read.
      const body = definition.signedBody
        ? await readSignedBody(c, definition.signedBody.headers)
        : definition.body
          ? await readJsonBody(c, definition.body)
          : definition.method === "get"
            ? undefined
            : await refuseBody(c);
      const input = { params, query, body } as ParsedInput<D>;
      const answer = () => handler(input, requestFacts(c, user) as RequestFacts<D>);
      const kept = keptAnswerKey?.(input, user);
      const result = kept === undefined ? await answer() : await this.readCache.read(kept, async () => answer(), c.get("dataVersion"));
      const success = definition.success;
      if (!success) throw new Error(`${definition.method} ${definition.path} has no success answer but its handler returned`);
      if (success.mediaTypes) return result as Response;
      if (success.cacheControl && definition.access === "public") setAnswerHeader(c, "Cache-Control", success.cacheControl);
      if (success.status === 204 || success.schema === undefined) return c.body(null, success.status === 204 ? 204 : success.status);
      // A cached answer (read-cache.ts) is the same object request after request: serialised once.
      if (result !== lastResult || lastJson === undefined) {
        lastJson = JSON.stringify(result);
        lastResult = result;
      }
      return c.body(lastJson, success.status, jsonContentType());
    });
    // The endpoint's last answer and its JSON (answers are never changed once returned).
    let lastResult: unknown;
    let lastJson: string | undefined;
  }
}

/**
 * What is wrong with a staff endpoint's roles, or null: a change names its roles (never "staff",
 * which would let a viewer in), an admin is always among them and a viewer never (a viewer reads).
 */
function staffRolesProblem(definition: EndpointDefinition): string | null {
  if (!isStaffAccess(definition.access)) return null;
  const roles = allowedRoles(definition.access);
  if (!roles.includes("admin")) return 'the roles allowed must include "admin"';
  if (definition.method === "get") return null;
  if (definition.access === "staff") return 'a change names the roles allowed ({ roles: [...] }), not "staff"';
  if (roles.includes("viewer")) return 'a viewer reads only: "viewer" cannot be allowed a change';
  return null;
}

/**
 * For an endpoint whose definition says its answer may be kept (`cache`), the read cache's key of
 * one request's answer: the endpoint, the caller when the answer is theirs, and the parsed path
 * parameters and query (defaults applied, so equal requests share it); undefined when this request's
 * answer is read afresh (a key of `unlessQuery` given). Errors are never kept (read-cache.ts).
 */
function answerKeyOf(definition: EndpointDefinition): ((input: ParsedInput<EndpointDefinition>, user: ActingUser | null) => string | undefined) | undefined {
  const cache = definition.cache;
  if (!cache) return undefined;
  if (definition.method !== "get") throw new Error(`${definition.method.toUpperCase()} ${definition.path}: only GET answers may be kept`);
  const endpoint = `${definition.method} ${definition.path}`;
  const unless = cache.unlessQuery ?? [];
  // Without parameters or query the key is the same every time: made once.
  if (!definition.params && !definition.query && cache.per === "everyone") return () => endpoint;
  return (input, user) => {
    const query = input.query as Record<string, unknown> | undefined;
    if (query && unless.some((k) => query[k] !== undefined && String(query[k]).trim() !== "")) return undefined;
    const caller = cache.per === "caller" ? (user?.id ?? "anonymous") : "";
    return `${endpoint}\u0000${caller}\u0000${JSON.stringify(input.params ?? null)}\u0000${JSON.stringify(query ?? null)}`;
  };
}

function requestFacts(c: Context<AppEnv>, user: ActingUser | null): RequestFacts<EndpointDefinition> | RequestFacts<EndpointDefinition & { access: "public" }> {
  return new FactsOfRequest(c, user) as RequestFacts<EndpointDefinition>;
}

/**
 * A request's facts as one object whose rarer parts (the actor, the token, the URL) are read when a
 * handler asks: an object literal with getters made two closures per request, and most handlers
 * (every cached read) use none of them.
 */
class FactsOfRequest {
  readonly requestId: string;
  readonly clientIp: string;
  readonly userAgent: string | null;
  readonly method: string;
  #actor: Actor | null | undefined;
  #url: URL | undefined;

  constructor(
    private readonly c: Context<AppEnv>,
    readonly user: ActingUser | null,
  ) {
    this.requestId = c.get("requestId");
    this.clientIp = c.get("clientIp");
    this.userAgent = requestHeader(c, "user-agent") ?? null;
    this.method = c.req.method;
  }

  get actor(): Actor | null {
    if (this.#actor === undefined) this.#actor = this.user ? { user: this.user, clientIp: this.clientIp, userAgent: this.userAgent, requestId: this.requestId } : null;
    return this.#actor;
  }

  get apiKey(): ApiKeyPrincipal | null {
    return this.c.get("apiKey") ?? null;
  }

  get bearerToken(): string | null {
    return bearerToken(requestHeader(this.c, "authorization"));
  }

  get url(): URL {
    return (this.#url ??= new URL(this.c.req.url));
  }
}
