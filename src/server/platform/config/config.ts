import { z } from "zod";
import { readSecretFiles } from "./secret-files.ts";
import { SealingKey } from "../crypto/sealed-text.ts";
import { type TrustProxy, parseTrustProxy } from "./trust-proxy.ts";

/**
 * Runtime configuration from the environment (docs/product.md §13 Configuration; every variable in
 * .env.example). Parsing is strict: bad values stop the start, every one of them reported at once,
 * one line per variable, so a deploy is not fixed one variable per restart.
 */
const booleanString = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** Longest audit retention accepted (100 years). */
export const MAX_AUDIT_RETENTION_DAYS = 36_500;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, "must be sqlite:<path> or postgres://...")
    .default("sqlite:./data/admin.sqlite"),
  /** The PostgreSQL password when it is not in DATABASE_URL: any characters, no URL encoding (compose.yaml). */
  DATABASE_PASSWORD: z.string().min(1).optional(),
  /** Connections each server process keeps to PostgreSQL at most (docs/operations.md "Scaling"). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  BETA_PASSWORD: z.string().min(1).optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  ADMIN_EMAIL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, "must be a bare domain such as hki.global")
    .default("hki.global"),
  STOREFRONT_URL: z.string().url().default("http://localhost:5174"),
  /** The panel's public address: every link the product writes starts with it (checked in loadConfig). */
  PUBLIC_URL: z.string().optional(),
  SEED_DEMO: booleanString.optional(),
  AUTH_PROVIDER: z.enum(["local", "clerk"]).default("local"),
  CLERK_SECRET_KEY: z.string().min(1).optional(),
  CLERK_PUBLISHABLE_KEY: z.string().min(1).optional(),
  CLERK_API_URL: z.string().url().default("https://api.clerk.com"),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_API_BASE: z.string().url().optional(),
  /** Transfers per second a payout run asks Stripe for (docs/product.md §15); Stripe allows 25 in test mode. */
  STRIPE_MAX_RPS: z.coerce.number().min(0.1).max(1000).default(25),
  /**
   * Verifies Stripe's webhooks (POST /api/webhooks/stripe, docs/integration.md): the endpoint's signing
   * secret (whsec_…), or several separated by commas: Stripe gives the endpoint for your account's
   * events (transfer.reversed) and the one for connected accounts' events (account.updated) a secret each.
   */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[^\s,]+(,whsec_[^\s,]+)*$/, "must be the endpoint's signing secret from Stripe (whsec_…), or two separated by a comma (your account's endpoint, the connected accounts' one)")
    .optional(),
  /** How long after a payout's last attempt Stripe's "no such transfer" is believed (docs/product.md §15.3). */
  PAYOUT_UNKNOWN_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  NODE_ENV: z.string().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be smtp://[user:password@]host[:port] or smtps://…")
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(320).optional(),
  MAIL_DIR: z.string().min(1).default("./data/mail"),
  /** Announcement mails per second, per server process (docs/product.md §17.3). */
  MAIL_MAX_PER_SECOND: z.coerce.number().min(0.1).max(10_000).default(50),
  AUDIT_RETENTION_DAYS: z
    .string()
    .trim()
    .regex(/^\d{1,5}$/, `must be a whole number of days from 1 to ${MAX_AUDIT_RETENTION_DAYS}`)
    .transform(Number)
    .refine((days) => days >= 1 && days <= MAX_AUDIT_RETENTION_DAYS, `must be a whole number of days from 1 to ${MAX_AUDIT_RETENTION_DAYS}`)
    .default(365),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  TRUST_PROXY: z.string().optional(),
  CLERK_AUTHORIZED_PARTIES: z.string().optional(),
  /** Verifies Clerk's webhooks (POST /api/webhooks/clerk, docs/integration.md): the endpoint's signing secret, whsec_… */
  CLERK_WEBHOOK_SIGNING_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must be the endpoint's signing secret from Clerk (whsec_ and base64)")
    .optional(),
  CLERK_ISSUER: z.string().url().optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** node:http's limits per server process (platform/http/server-limits.ts, docs/product.md §13). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000, "must be at least 1000 (milliseconds)").max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000, "must be at least 1000 (milliseconds)").max(600_000).default(30_000),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1024),
  /** Seals webhook signing secrets at rest (platform/crypto/sealed-text.ts): 32 random bytes, hex or base64. */
  WEBHOOK_SECRETS_KEY: z.string().optional(),
  /** Lets webhooks go to private, loopback and link-local addresses and over plain http in production. */
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanString.default(false),
});

/** Every variable the configuration reads (each documented in .env.example; a test holds the two equal). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export type DatabaseConfig =
  | { kind: "sqlite"; path: string }
  | { kind: "postgres"; url: string; /** tests isolate themselves in a schema */ searchPath?: string; /** connections per process (DATABASE_POOL_MAX); 10 when unset */ poolMax?: number };

export interface AppConfig {
  port: number;
  host: string;
  /** Server processes sharing the port (node:cluster); 1 = a single process. See cluster-primary.ts. */
  workers: number;
  database: DatabaseConfig;
  /** Undefined means "generate one at start and print it once" (refused in production). */
  betaPassword: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  adminEmailDomain: string;
  storefrontUrl: string;
  /**
   * The panel's public address (PUBLIC_URL), an origin such as "https://admin.example.com": the start
   * of every link the product writes (invitations, their e-mails, export downloads). A request's
   * Host or X-Forwarded-* headers never decide a link (issue 18: `Host: evil.example` once put
   * an attacker's address in invitation e-mails).
   */
  publicUrl: string;
  seedDemo: boolean;
  authProvider: "local" | "clerk";
  clerkSecretKey: string | undefined;
  clerkPublishableKey: string | undefined;
  clerkApiUrl: string;
  /** The mailer (mail/): SMTP when set (SMTP_URL), otherwise .eml files in `mailDir`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  mailDir: string;
  /** Pace of announcement mails, per second and server process (MAIL_MAX_PER_SECOND). */
  mailMaxPerSecond: number;
  /** Audit rows older than this many days are removed by a daily job (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  stripeSecretKey: string | undefined;
  stripeApiBase: string | undefined;
  /** Pace of a payout run's calls to Stripe, per second (STRIPE_MAX_RPS). */
  stripeMaxRps: number;
  /** A payout of unknown outcome is declared not sent only when Stripe lists no transfer this long after its last attempt (PAYOUT_UNKNOWN_WINDOW_SECONDS). */
  payoutUnknownWindowMs: number;
  /** STRIPE_WEBHOOK_SECRET, each secret of it (an event verified by any is taken); none: POST /api/webhooks/stripe answers 503 and takes nothing. */
  stripeWebhookSecrets: string[];
  /** CLERK_WEBHOOK_SIGNING_SECRET: without it POST /api/webhooks/clerk answers 503 and takes nothing. */
  clerkWebhookSigningSecret: string | undefined;
  production: boolean;
  /** Proxies trusted to report the client's address (TRUST_PROXY); off by default. */
  trustProxy: TrustProxy;
  /** Origins whose Clerk tokens are accepted (the `azp` claim), from CLERK_AUTHORIZED_PARTIES. */
  clerkAuthorizedParties: string[];
  /** The Clerk instance's issuer (`iss`): CLERK_ISSUER, or read from the publishable key. */
  clerkIssuer: string | undefined;
  /** A second listener for /metrics only (METRICS_PORT); unset = none. */
  metricsPort: number | undefined;
  /** Bearer token for /metrics on the main port (METRICS_TOKEN); unset = not served there. */
  metricsToken: string | undefined;
  /** pino level of the JSON logs (LOG_LEVEL). */
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** A request's headers must arrive within this many ms (HTTP_HEADERS_TIMEOUT_MS), else node answers 408 and closes the connection. */
  httpHeadersTimeoutMs: number;
  /** A whole request, headers and body, must arrive within this many ms (HTTP_REQUEST_TIMEOUT_MS); the time taken to answer does not count. */
  httpRequestTimeoutMs: number;
  /** Open connections one server process accepts (HTTP_MAX_CONNECTIONS); further ones are closed unread. */
  httpMaxConnections: number;
  /** WEBHOOK_SECRETS_KEY as given; undefined means "generate one at start and print it once" (refused in production). */
  webhookSecretsKey: string | undefined;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: production may send webhooks to private addresses and over http. */
  webhookAllowPrivateUrls: boolean;
}

/** Bad configuration: `problems` holds one line per bad variable ("Invalid NAME: why"), the message all of them. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string | string[]) {
    const lines = typeof problems === "string" ? [problems] : problems;
    super(lines.join("\n"));
    this.problems = lines;
  }
}

/** Shortest secrets accepted in production; anything shorter is guessable. */
const MIN_PRODUCTION_SECRET_LENGTH = 12;

export function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith("sqlite:")) return { kind: "sqlite", path: url.slice("sqlite:".length) };
  return { kind: "postgres", url };
}

type Environment = z.infer<typeof envSchema>;

/**
 * Each variable parsed on its own, so that every bad one is reported (one line each); a bad value is
 * replaced by its default (or unset) so the checks between variables still run on the rest.
 */
function parseEachVariable(values: Record<string, string>, problems: string[]): Environment {
  const parsed: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(envSchema.shape) as [string, z.ZodType][]) {
    const result = schema.safeParse(values[name]);
    if (result.success) {
      parsed[name] = result.data;
      continue;
    }
    problems.push(`Invalid ${name}: ${result.error.issues[0]?.message ?? "not a valid value"}`);
    const fallback = schema.safeParse(undefined);
    parsed[name] = fallback.success ? fallback.data : undefined;
  }
  return parsed as Environment;
}

/** The sslmode values node-postgres knows (docs/operations.md "Configuration"); anything else is a typo. */
const POSTGRES_SSL_MODES = ["disable", "prefer", "require", "verify-ca", "verify-full", "no-verify"];

/**
 * A PostgreSQL URL checked and completed: a known `sslmode`, and DATABASE_PASSWORD (any characters)
 * written into it URL-encoded, so a password with `@`, `/` or `:` cannot break the URL.
 */
function postgresUrl(url: string, password: string | undefined): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError("Invalid DATABASE_URL: not a URL (a password with @, / or : must be URL-encoded, or given as DATABASE_PASSWORD)");
  }
  const sslmode = parsed.searchParams.get("sslmode");
  if (sslmode !== null && !POSTGRES_SSL_MODES.includes(sslmode)) throw new ConfigError(`Invalid DATABASE_URL: sslmode must be one of ${POSTGRES_SSL_MODES.join(", ")}`);
  if (password === undefined) return url;
  if (parsed.password) throw new ConfigError("Invalid DATABASE_PASSWORD: DATABASE_URL has a password already; give it in one place");
  if (!parsed.username) throw new ConfigError("Invalid DATABASE_URL: names no user for DATABASE_PASSWORD (postgres://user@host/db)");
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const problems: string[] = [];
  /** One line per variable: a variable already reported keeps its first problem. */
  const report = (line: string) => {
    if (!problems.some((known) => variableOf(known) === variableOf(line))) problems.push(line);
  };
  /** Runs a check that throws ConfigError, collecting its lines instead; `fallback` stands in for its result. */
  const check = <T>(run: () => T, fallback: T): T => {
    try {
      return run();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      for (const line of err.problems) report(line);
      return fallback;
    }
  };
  const withSecrets = readSecretFiles(env, problems);
  // Empty strings are treated as unset, as shells and .env files commonly produce them.
  const cleaned = Object.fromEntries(Object.entries(withSecrets).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ""));
  const e = parseEachVariable(cleaned, problems);
  const parsedDatabase = parseDatabaseUrl(e.DATABASE_URL);
  const database: DatabaseConfig =
    parsedDatabase.kind === "postgres"
      ? { kind: "postgres", url: check(() => postgresUrl(parsedDatabase.url, e.DATABASE_PASSWORD), parsedDatabase.url), poolMax: e.DATABASE_POOL_MAX }
      : parsedDatabase;
  const production = e.NODE_ENV === "production";

  if (database.kind === "sqlite" && e.DATABASE_PASSWORD !== undefined) report("Invalid DATABASE_PASSWORD: only for a postgres:// DATABASE_URL");
  if (production) {
    for (const name of ["BETA_PASSWORD", "ADMIN_PASSWORD"] as const) {
      const value = e[name];
      if (!value) report(`Invalid ${name}: required when NODE_ENV=production (no generated secrets in production)`);
      else if (value.length < MIN_PRODUCTION_SECRET_LENGTH) report(`Invalid ${name}: must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters when NODE_ENV=production`);
    }
  }
  if (e.WEBHOOK_SECRETS_KEY !== undefined) {
    try {
      SealingKey.parse(e.WEBHOOK_SECRETS_KEY);
    } catch (err) {
      report(`Invalid WEBHOOK_SECRETS_KEY: ${(err as Error).message}`);
    }
  } else if (production) report("Invalid WEBHOOK_SECRETS_KEY: required when NODE_ENV=production (no generated secrets in production; e.g. openssl rand -base64 32)");
  if (e.WEB_CONCURRENCY > 1 && database.kind === "sqlite" && database.path === ":memory:") {
    report("Invalid WEB_CONCURRENCY: several processes cannot share an in-memory SQLite database");
  }
  if (e.AUTH_PROVIDER === "clerk" && (!e.CLERK_SECRET_KEY || !e.CLERK_PUBLISHABLE_KEY)) {
    report("Invalid AUTH_PROVIDER: clerk needs CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY");
  }
  const trustProxy = check(() => {
    try {
      return parseTrustProxy(e.TRUST_PROXY);
    } catch (err) {
      throw new ConfigError(`Invalid TRUST_PROXY: ${(err as Error).message}`);
    }
  }, parseTrustProxy(undefined));
  const publicUrl = check(() => parsePublicUrl(e.PUBLIC_URL, production, e.HOST, e.PORT), "");
  const clerkAuthorizedParties = check(() => parseAuthorizedParties(e.CLERK_AUTHORIZED_PARTIES), []);
  const clerkIssuer = e.CLERK_ISSUER?.replace(/\/+$/, "") ?? issuerFromPublishableKey(e.CLERK_PUBLISHABLE_KEY);
  if (e.AUTH_PROVIDER === "clerk") {
    if (clerkAuthorizedParties.length === 0) report("Invalid CLERK_AUTHORIZED_PARTIES: required with AUTH_PROVIDER=clerk (the origins allowed to present tokens, e.g. https://admin.example.com)");
    if (!clerkIssuer) report("Invalid CLERK_ISSUER: required when it cannot be read from CLERK_PUBLISHABLE_KEY");
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port: e.PORT,
    host: e.HOST,
    workers: e.WEB_CONCURRENCY,
    database,
    betaPassword: e.BETA_PASSWORD,
    adminEmail: (e.ADMIN_EMAIL ?? `admin@${e.ADMIN_EMAIL_DOMAIN}`).toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    adminEmailDomain: e.ADMIN_EMAIL_DOMAIN.toLowerCase(),
    storefrontUrl: e.STOREFRONT_URL.replace(/\/+$/, ""),
    publicUrl,
    seedDemo: e.SEED_DEMO ?? database.kind === "sqlite",
    authProvider: e.AUTH_PROVIDER,
    clerkSecretKey: e.CLERK_SECRET_KEY,
    clerkPublishableKey: e.CLERK_PUBLISHABLE_KEY,
    clerkApiUrl: e.CLERK_API_URL.replace(/\/+$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `HKI Global Admin <no-reply@${e.ADMIN_EMAIL_DOMAIN.toLowerCase()}>`,
    mailDir: e.MAIL_DIR,
    mailMaxPerSecond: e.MAIL_MAX_PER_SECOND,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeApiBase: e.STRIPE_API_BASE,
    stripeMaxRps: e.STRIPE_MAX_RPS,
    payoutUnknownWindowMs: e.PAYOUT_UNKNOWN_WINDOW_SECONDS * 1000,
    stripeWebhookSecrets: e.STRIPE_WEBHOOK_SECRET?.split(",") ?? [],
    clerkWebhookSigningSecret: e.CLERK_WEBHOOK_SIGNING_SECRET,
    production,
    trustProxy,
    clerkAuthorizedParties,
    clerkIssuer,
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    httpHeadersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    httpRequestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    httpMaxConnections: e.HTTP_MAX_CONNECTIONS,
    webhookSecretsKey: e.WEBHOOK_SECRETS_KEY,
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS,
  };
}

/** "Invalid NAME: why" → NAME: a variable is reported once, by its first problem. */
function variableOf(line: string): string {
  return /^Invalid (\S+):/.exec(line)?.[1] ?? line;
}

/**
 * PUBLIC_URL as an origin ("https://admin.example.com", no trailing slash). Required in production,
 * where the listening address is rarely the public one (a proxy terminates TLS in front); otherwise
 * http://HOST:PORT, with "localhost" for the unspecified addresses 0.0.0.0 and ::, which no browser
 * can open. Only http(s) origins: no path, query, fragment or credentials.
 */
function parsePublicUrl(value: string | undefined, production: boolean, host: string, port: number): string {
  if (value === undefined) {
    if (production)
      throw new ConfigError("Invalid PUBLIC_URL: required when NODE_ENV=production (the panel's public address, e.g. https://admin.example.com; every link the product writes starts with it)");
    const name = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
    return new URL(`http://${name}:${port}`).origin;
  }
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash || url.pathname !== "/" || /[?#]/.test(value)) {
    throw new ConfigError("Invalid PUBLIC_URL: must be an http(s) origin such as https://admin.example.com (no path, query or credentials)");
  }
  return url.origin;
}

/** "https://a.example, https://b.example" → their origins; a value that is not an origin stops the start. */
function parseAuthorizedParties(value: string | undefined): string[] {
  const parties: string[] = [];
  for (const part of (value ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    let origin: string;
    try {
      origin = new URL(part).origin;
    } catch {
      origin = "null";
    }
    if (origin === "null" || origin !== part.replace(/\/+$/, "")) throw new ConfigError(`Invalid CLERK_AUTHORIZED_PARTIES: "${part}" is not an origin such as https://admin.example.com`);
    parties.push(origin);
  }
  return parties;
}

/**
 * A Clerk publishable key is `pk_(test|live)_` + base64 of the instance's Frontend API host and a
 * "$"; that host, over https, is the `iss` of the instance's session tokens.
 */
export function issuerFromPublishableKey(key: string | undefined): string | undefined {
  const match = /^pk_(?:test|live)_([A-Za-z0-9+/=_-]+)$/.exec(key ?? "");
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const host = /^([a-z0-9.-]+\.[a-z]{2,})\$$/i.exec(decoded)?.[1];
  return host ? `https://${host.toLowerCase()}` : undefined;
}
