import { z } from "zod";
import { type TrustProxy, parseTrustProxy } from "./trust-proxy.ts";

/**
 * Runtime configuration from the environment (docs/product.md §13 Configuration). Parsing is strict:
 * a bad value stops the start with one line naming the variable.
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
  CLERK_ISSUER: z.string().url().optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type DatabaseConfig = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string; /** tests isolate themselves in a schema */ searchPath?: string };

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
}

export class ConfigError extends Error {}

/** Shortest secrets accepted in production; anything shorter is guessable. */
const MIN_PRODUCTION_SECRET_LENGTH = 12;

export function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith("sqlite:")) return { kind: "sqlite", path: url.slice("sqlite:".length) };
  return { kind: "postgres", url };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings are treated as unset, as shells and .env files commonly produce them.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`Invalid ${name}: ${issue.message}`);
  }
  const e = parsed.data;
  const database = parseDatabaseUrl(e.DATABASE_URL);
  const production = e.NODE_ENV === "production";

  if (production) {
    for (const name of ["BETA_PASSWORD", "ADMIN_PASSWORD"] as const) {
      const value = e[name];
      if (!value) throw new ConfigError(`Invalid ${name}: required when NODE_ENV=production (no generated secrets in production)`);
      if (value.length < MIN_PRODUCTION_SECRET_LENGTH) throw new ConfigError(`Invalid ${name}: must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters when NODE_ENV=production`);
    }
  }
  if (e.WEB_CONCURRENCY > 1 && database.kind === "sqlite" && database.path === ":memory:") {
    throw new ConfigError("Invalid WEB_CONCURRENCY: several processes cannot share an in-memory SQLite database");
  }
  if (e.AUTH_PROVIDER === "clerk" && (!e.CLERK_SECRET_KEY || !e.CLERK_PUBLISHABLE_KEY)) {
    throw new ConfigError("Invalid AUTH_PROVIDER: clerk needs CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY");
  }
  let trustProxy: TrustProxy;
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
  } catch (err) {
    throw new ConfigError(`Invalid TRUST_PROXY: ${(err as Error).message}`);
  }
  const publicUrl = parsePublicUrl(e.PUBLIC_URL, production, e.HOST, e.PORT);
  const clerkAuthorizedParties = parseAuthorizedParties(e.CLERK_AUTHORIZED_PARTIES);
  const clerkIssuer = e.CLERK_ISSUER?.replace(/\/+$/, "") ?? issuerFromPublishableKey(e.CLERK_PUBLISHABLE_KEY);
  if (e.AUTH_PROVIDER === "clerk") {
    if (clerkAuthorizedParties.length === 0)
      throw new ConfigError("Invalid CLERK_AUTHORIZED_PARTIES: required with AUTH_PROVIDER=clerk (the origins allowed to present tokens, e.g. https://admin.example.com)");
    if (!clerkIssuer) throw new ConfigError("Invalid CLERK_ISSUER: required when it cannot be read from CLERK_PUBLISHABLE_KEY");
  }

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
    production,
    trustProxy,
    clerkAuthorizedParties,
    clerkIssuer,
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
  };
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
