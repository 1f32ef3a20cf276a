import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Hono } from "hono";
import { Agent, request as httpRequest, type Server } from "node:http";
import { createApp } from "../app.ts";
import { serveApp } from "../serve.ts";
import type { AppDeps, AppEnv } from "../platform/request/app-env.ts";
import { sessionIdForToken } from "../platform/identity/local-auth-provider.ts";
import { newApiKeySecret } from "../platform/identity/api-keys.ts";
import { hashPassword } from "../platform/identity/password-hash.ts";
import { fixedClock } from "../platform/clock.ts";
import { type AppConfig, loadConfig } from "../platform/config/config.ts";
import { type Database, openDatabase } from "../platform/db/connect.ts";
import { newId } from "../platform/db/ids.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import { createLogger } from "../platform/logging/logger.ts";
import { createRuntime } from "../runtime.ts";

/** The databases API tests run against: SQLite always, PostgreSQL when TEST_DATABASE_URL is set (as in CI). */
export const testDatabaseKinds: Array<"sqlite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

export const TEST_PASSWORD = "correct horse battery staple";
export const TEST_BETA_PASSWORD = "beta-test-password";

let passwordHash: Promise<string> | undefined;
/** Hashing at full strength is slow on purpose; tests hash the shared test password once. */
function testPasswordHash(): Promise<string> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  return passwordHash;
}

export interface TestContext {
  app: Hono<AppEnv>;
  deps: AppDeps;
  database: Database;
  clock: ReturnType<typeof fixedClock>;
  config: AppConfig;
  /** A user with a live session: `headers` carries its bearer token. */
  createUser(input: { email: string; role?: "admin" | "finance" | "support" | "viewer" | "user" }): Promise<{ id: string; email: string; token: string; headers: Record<string, string> }>;
  request(path: string, init?: RequestInit & { json?: unknown; token?: string }): Promise<Response>;
  /** A live API key (docs/integration.md) with the scopes given (default events:write), made directly in the database. */
  createApiKey(scopes?: string[]): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export interface TestContextOptions {
  seedDemo?: boolean;
  now?: string;
  env?: Record<string, string>;
  fetchImpl?: typeof fetch;
  /** SQLite only: a database file instead of memory, for tests that open a second connection to it. */
  sqlitePath?: string;
}

async function openTestDatabase(kind: "sqlite" | "postgres", sqlitePath = ":memory:"): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === "sqlite") {
    const database = openDatabase({ kind: "sqlite", path: sqlitePath });
    return { database, drop: async () => undefined };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openDatabase({ kind: "postgres", url, searchPath: schema });
  return {
    database,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

async function insertUser(database: Database, now: string, email: string, role: "admin" | "finance" | "support" | "viewer" | "user"): Promise<string> {
  const id = newId();
  await database.db
    .insertInto("users")
    .values({ id, email: email.toLowerCase(), name: null, role, password_hash: await testPasswordHash(), created_at: now, updated_at: now })
    .execute();
  return id;
}

/**
 * The app served as production serves it (serve.ts `serveApp`: node:http, the server's response
 * class, its limits) on a loopback port, started at the first request: tests take the one request
 * path the panel answers on (issue 32), not an in-process shortcut. Requests go out with node's own
 * client, which (unlike fetch) reads an answer the server gives before the body was all sent (413).
 */
function productionServer(app: Hono<AppEnv>, config: AppConfig): { send(path: string, init: { method: string; headers: Headers; body: BodyInit | null }): Promise<Response>; close(): Promise<void> } {
  let started: Promise<{ server: Server; port: number }> | undefined;
  const agent = new Agent({ keepAlive: true });
  const listening = () =>
    (started ??= new Promise((resolve) => {
      const server = serveApp(app, { ...config, host: "127.0.0.1", port: 0 }, (info) => resolve({ server, port: info.port })) as Server;
    }));
  return {
    async send(path, init) {
      const { port } = await listening();
      // As a client sends it: non-ASCII and other characters percent-encoded (node:http refuses them raw).
      const target = new URL(path, "http://127.0.0.1");
      const payload = init.body === null ? null : typeof init.body === "string" ? Buffer.from(init.body) : Buffer.from(await new Response(init.body).arrayBuffer());
      const headers: Record<string, string> = {};
      init.headers.forEach((value, name) => (headers[name] = value));
      if (payload && headers["content-length"] === undefined) headers["content-length"] = String(payload.length);
      return new Promise<Response>((resolve, reject) => {
        let answered = false;
        const req = httpRequest({ host: "127.0.0.1", port, path: target.pathname + target.search, method: init.method, headers, agent }, (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            const answer = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (Array.isArray(value)) for (const v of value) answer.append(name, v);
              else if (value !== undefined) answer.set(name, value);
            }
            const status = res.statusCode ?? 500;
            const noBody = status === 204 || status === 304 || init.method === "HEAD";
            resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? "", headers: answer }));
          });
        });
        // The server may answer (413) and close before the body is all sent: the answer is what
        // counts; a connection closed without one is the failure.
        let failure: Error | undefined;
        req.on("error", (err) => (failure = err));
        req.on("close", () => {
          if (!answered) reject(failure ?? new Error(`${init.method} ${path}: connection closed without an answer`));
        });
        req.end(payload ?? undefined);
      });
    },
    close: async () => {
      agent.destroy();
      if (!started) return;
      const { server } = await started;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fresh app on a fresh database (in-memory SQLite, or an own schema in PostgreSQL). */
export async function createTestContext(kind: "sqlite" | "postgres", options: TestContextOptions = {}): Promise<TestContext> {
  const clock = fixedClock(options.now ?? "2026-11-22T12:00:00.000Z");
  const config = loadConfig({
    DATABASE_URL: kind === "sqlite" ? "sqlite::memory:" : process.env.TEST_DATABASE_URL,
    BETA_PASSWORD: TEST_BETA_PASSWORD,
    ADMIN_EMAIL: "root-admin@hki.global",
    ADMIN_PASSWORD: TEST_PASSWORD,
    SEED_DEMO: options.seedDemo ? "true" : "false",
    STOREFRONT_URL: "http://store.test",
    // Access lines only where a test asks for them (LOG_LEVEL in options.env), written to process.stdout.
    LOG_LEVEL: "silent",
    ...options.env,
  });
  const { database, drop } = await openTestDatabase(kind, options.sqlitePath);
  // The first admin is made here with the once-hashed test password, so each context skips a
  // full-strength scrypt hash at start-up (the start-up path itself is tested in bootstrap tests).
  await migrateToLatest(database.db);
  await insertUser(database, clock.now().toISOString(), config.adminEmail, "admin");
  const deps = await createRuntime(config, {
    clock,
    database,
    announce: () => undefined,
    logger: createLogger(config.logLevel, process.stdout),
    ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
  });
  const app = createApp(deps);
  const server = productionServer(app, config);

  return {
    app,
    deps,
    database,
    clock,
    config,
    async createUser({ email, role = "user" }) {
      const now = clock.now().toISOString();
      const id = await insertUser(database, now, email, role);
      const token = randomBytes(32).toString("base64url");
      await database.db
        .insertInto("sessions")
        .values({ id: sessionIdForToken(token), user_id: id, created_at: now, expires_at: new Date(clock.now().getTime() + 3600_000).toISOString(), revoked_at: null })
        .execute();
      return { id, email: email.toLowerCase(), token, headers: { authorization: `Bearer ${token}` } };
    },
    async createApiKey(scopes = ["events:write"]) {
      const secret = newApiKeySecret();
      const id = newId();
      await database.db
        .insertInto("api_keys")
        .values({
          id,
          name: `Test key ${id.slice(-4)}`,
          scopes: JSON.stringify(scopes),
          key_hash: secret.hash,
          prefix: secret.prefix,
          last_four: secret.lastFour,
          created_by_id: null,
          created_by_email: config.adminEmail,
          created_at: clock.now().toISOString(),
          last_used_at: null,
          revoked_at: null,
          revoked_by_email: null,
        })
        .execute();
      return { id, key: secret.key };
    },
    async request(path, init = {}) {
      const { json, token, headers, ...rest } = init;
      const allHeaders = new Headers(headers);
      if (token) allHeaders.set("authorization", `Bearer ${token}`);
      if (json !== undefined) allHeaders.set("content-type", "application/json");
      const body = json !== undefined ? JSON.stringify(json) : rest.body;
      return server.send(path, { method: rest.method ?? "GET", headers: allHeaders, body: body ?? null });
    },
    async close() {
      await server.close();
      await database.close();
      await drop();
    },
  };
}
