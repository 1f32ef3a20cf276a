import { z } from "zod";

/**
 * Runtime configuration from the environment (docs/product.md §13 Configuration). Parsing is strict:
 * a bad value stops the start with one line naming the variable.
 */
const booleanString = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

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
  SEED_DEMO: booleanString.optional(),
  AUTH_PROVIDER: z.enum(["local", "clerk"]).default("local"),
  CLERK_SECRET_KEY: z.string().min(1).optional(),
  CLERK_PUBLISHABLE_KEY: z.string().min(1).optional(),
  CLERK_API_URL: z.string().url().default("https://api.clerk.com"),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_API_BASE: z.string().url().optional(),
  NODE_ENV: z.string().optional(),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
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
  seedDemo: boolean;
  authProvider: "local" | "clerk";
  clerkSecretKey: string | undefined;
  clerkPublishableKey: string | undefined;
  clerkApiUrl: string;
  stripeSecretKey: string | undefined;
  stripeApiBase: string | undefined;
  production: boolean;
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
      if (value.length < MIN_PRODUCTION_SECRET_LENGTH)
        throw new ConfigError(`Invalid ${name}: must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters when NODE_ENV=production`);
    }
  }
  if (e.WEB_CONCURRENCY > 1 && database.kind === "sqlite" && database.path === ":memory:") {
    throw new ConfigError("Invalid WEB_CONCURRENCY: several processes cannot share an in-memory SQLite database");
  }
  if (e.AUTH_PROVIDER === "clerk" && (!e.CLERK_SECRET_KEY || !e.CLERK_PUBLISHABLE_KEY)) {
    throw new ConfigError("Invalid AUTH_PROVIDER: clerk needs CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY");
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
    seedDemo: e.SEED_DEMO ?? database.kind === "sqlite",
    authProvider: e.AUTH_PROVIDER,
    clerkSecretKey: e.CLERK_SECRET_KEY,
    clerkPublishableKey: e.CLERK_PUBLISHABLE_KEY,
    clerkApiUrl: e.CLERK_API_URL.replace(/\/+$/, ""),
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeApiBase: e.STRIPE_API_BASE,
    production,
  };
}
