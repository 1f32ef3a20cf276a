import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "@playwright/test";
import { type FakeClerkServer, startFakeClerk } from "../src/server/testing/fake-clerk-server";
import { E2E } from "./test-env";
import { serverCommand } from "../src/server/testing/server-command";

/** The production bundle with the server's node options, as `npm start` runs it (server-command.ts). */
const [productionServer, ...productionServerArgs] = serverCommand("build");

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The Clerk accounts of the e2e instance (never real ones). */
export const CLERK_USERS = {
  /** An admin by role: `admin` in Clerk's public metadata, on an outside e-mail domain. */
  roleAdmin: { id: "user_e2e_role_admin", email: "curator@gmail.com", password: "e2e-clerk-role-admin" },
  /** An admin by the company e-mail domain (ADMIN_EMAIL_DOMAIN, hki.global), no role. */
  domainAdmin: { id: "user_e2e_domain_admin", email: "ops@hki.global", password: "e2e-clerk-domain-admin" },
  /** A marketplace user: signs in at Clerk, has no panel access. */
  artist: { id: "user_e2e_artist", email: "artist@example.com", password: "e2e-clerk-artist" },
} as const;

export interface ClerkDeployment {
  /** The panel, served by the production bundle with AUTH_PROVIDER=clerk. */
  baseUrl: string;
  clerk: FakeClerkServer;
  /** Requests to a host that is neither loopback nor the Frontend API: refused (aborted), listed here. */
  refused: string[];
  /** Routes the browser context: loopback as is, the Frontend API host to the fake, anything else refused. */
  routeOffline(context: BrowserContext): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Clerk-mode server exited with code ${child.exitCode}:\n${readFileSync(logFile, "utf8")}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Clerk-mode server did not answer ${url}/api/health:\n${readFileSync(logFile, "utf8")}`);
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * A deployment on the marketplace's accounts, offline: the production bundle (built by the global
 * setup) with AUTH_PROVIDER=clerk, a fresh demo database, and the fake Clerk in this worker as both
 * the Backend API (CLERK_API_URL) and, through Playwright's routing, the Frontend API host of the
 * publishable key. Session tokens live `tokenTtlSeconds`.
 */
export async function startClerkDeployment(options: { tokenTtlSeconds: number }): Promise<ClerkDeployment> {
  const clerk = await startFakeClerk({ tokenTtlSeconds: options.tokenTtlSeconds });
  clerk.addUser({ ...CLERK_USERS.roleAdmin, role: "admin", firstName: "Cura", lastName: "Tor" });
  clerk.addUser(CLERK_USERS.domainAdmin);
  clerk.addUser(CLERK_USERS.artist);

  const dir = mkdtempSync(join(tmpdir(), "hki-e2e-clerk-"));
  const logFile = join(dir, "server.log");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(port),
    HOST: "127.0.0.1",
    WEB_CONCURRENCY: "1",
    DATABASE_URL: `sqlite:${join(dir, "e2e-clerk.sqlite")}`,
    SEED_DEMO: "true",
    BETA_PASSWORD: E2E.betaPassword,
    ADMIN_PASSWORD: E2E.adminPassword,
    STOREFRONT_URL: E2E.storefrontUrl,
    MAIL_DIR: join(dir, "mail"),
    AUTH_PROVIDER: "clerk",
    CLERK_SECRET_KEY: clerk.secretKey,
    CLERK_PUBLISHABLE_KEY: clerk.publishableKey,
    CLERK_API_URL: clerk.url,
    CLERK_AUTHORIZED_PARTIES: baseUrl,
  };
  const log = openSync(logFile, "a");
  const server = spawn(productionServer, productionServerArgs, { cwd: ROOT, env, stdio: ["ignore", log, log] });
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 6000))]);
      if (server.exitCode === null) server.kill("SIGKILL");
    }
    await clerk.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, server, logFile);
  } catch (error) {
    await stop();
    throw error;
  }

  const refused: string[] = [];
  return {
    baseUrl,
    clerk,
    refused,
    stop,
    async routeOffline(context) {
      await context.route("**/*", async (route) => {
        const request = route.request();
        const url = new URL(request.url());
        if (url.protocol === "data:" || url.protocol === "blob:" || LOOPBACK.has(url.hostname)) return route.continue();
        if (url.host !== clerk.frontendApiHost) {
          refused.push(`${request.method()} ${url.href}`);
          return route.abort("blockedbyclient");
        }
        // The Frontend API: the same request, with the page's Origin and the browser's cookies for
        // the host, answered by the fake; its answer (Set-Cookie included) goes back to the page.
        const headers = await request.allHeaders();
        const forwarded: Record<string, string> = {};
        for (const name of ["origin", "cookie", "content-type"]) if (headers[name]) forwarded[name] = headers[name];
        const body = request.postDataBuffer();
        const res = await fetch(`${clerk.url}${url.pathname}${url.search}`, { method: request.method(), headers: forwarded, ...(body ? { body: new Uint8Array(body) } : {}) });
        const answerHeaders: Record<string, string> = {};
        res.headers.forEach((value, name) => {
          if (name !== "set-cookie" && name !== "content-length" && name !== "connection" && name !== "keep-alive") answerHeaders[name] = value;
        });
        const cookies = res.headers.getSetCookie();
        if (cookies.length > 0) answerHeaders["set-cookie"] = cookies.join("\n");
        await route.fulfill({ status: res.status, headers: answerHeaders, body: Buffer.from(await res.arrayBuffer()) });
      });
    },
  };
}
