import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeStripe } from "../src/server/testing/fake-stripe-server";
import { E2E, E2E_LOST_REFUND_ANSWER } from "./test-env";
import { serverCommand } from "../src/server/testing/server-command";

/** The production bundle with the server's node options, as `npm start` runs it (server-command.ts). */
const [productionServer, ...productionServerArgs] = serverCommand("build");

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Asks the OS for a free port, starting from 3100 so a run is easy to spot in `ss`. */
export async function freePort(preferred = 3100): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        const chosen = typeof address === "object" && address ? address.port : port;
        server.close(() => resolve(chosen));
      });
    });
  try {
    return await tryPort(preferred);
  } catch {
    return tryPort(0);
  }
}

export async function waitForHealth(url: string, child: ChildProcess, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`e2e server exited with code ${child.exitCode}:\n${readFileSync(logFile, "utf8")}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`e2e server did not answer ${url}/api/health within ${timeoutMs} ms:\n${readFileSync(logFile, "utf8")}`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  // Pointing E2E_BASE_URL at an already running server (seeded like below) skips starting one.
  if (process.env.E2E_BASE_URL) {
    console.log(`[e2e] using the server at ${process.env.E2E_BASE_URL}`);
    return async () => {};
  }

  // The test runner script builds first; a direct `npx playwright test` builds what is missing or stale.
  const build = spawnSync(process.execPath, ["--import", "tsx", "scripts/ensure-build.ts"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("building the web app or the server failed");

  const dir = mkdtempSync(join(tmpdir(), "hki-e2e-"));
  const logFile = join(dir, "server.log");
  // E2E_PORT lets parallel runs (several engineers, one machine) start on distinct ports.
  const port = await freePort(Number(process.env.E2E_PORT) || undefined);
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: `sqlite:${join(dir, "e2e.sqlite")}`,
    SEED_DEMO: "true",
    BETA_PASSWORD: E2E.betaPassword,
    ADMIN_EMAIL: E2E.adminEmail,
    ADMIN_PASSWORD: E2E.adminPassword,
    STOREFRONT_URL: E2E.storefrontUrl,
    AUTH_PROVIDER: "local",
    // Invitation e-mails (no SMTP_URL) go to .eml files beside the throwaway database.
    MAIL_DIR: join(dir, "mail"),
  };

  // The production bundle, as `npm start` runs it: one process, so its PID is the one to stop.
  const log = openSync(logFile, "a");
  const server = spawn(productionServer, productionServerArgs, { cwd: ROOT, env, stdio: ["ignore", log, log] });
  const stop = async () => {
    if (server.exitCode === null && server.pid !== undefined) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 6000))]);
      if (server.exitCode === null) server.kill("SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, server, logFile);
    // After the server has migrated the database, add the non-admin user the Access Denied test signs in as.
    const create = spawnSync(process.execPath, ["--import", "tsx", "src/server/cli/user-create.ts", "--email", E2E.userEmail, "--password", E2E.userPassword, "--role", "user"], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    if (create.status !== 0) throw new Error(`user-create failed: ${create.stderr || create.stdout}`);
  } catch (error) {
    await stop();
    throw error;
  }

  process.env.E2E_BASE_URL = baseUrl;
  // Where the server writes its e-mails (.eml files): e2e/communications.spec.ts opens them.
  process.env.E2E_MAIL_DIR = join(dir, "mail");
  console.log(`[e2e] server at ${baseUrl} (pid ${server.pid}, log ${logFile})`);

  // Payouts (e2e/financials.spec.ts) run on a server of their own, on its own demo data, paying a
  // fake Stripe in this process: the main server keeps "no Stripe key" for the System Debug test.
  const stripe = await startFakeStripe();
  // A refund whose reason carries E2E_LOST_REFUND_ANSWER is made, but Stripe's answer is a 500 and
  // its list is down for the settle at once: the refund stays unknown for 'Check with Stripe'
  // (e2e/refunds.spec.ts).
  stripe.refundFault = ({ metadata, replay }) => {
    if (replay || !metadata.reason?.includes(E2E_LOST_REFUND_ANSWER)) return null;
    stripe.refundListFailNext = 1;
    return "500-after-create";
  };
  const payoutsPort = await freePort(port + 1);
  const payoutsUrl = `http://127.0.0.1:${payoutsPort}`;
  const payoutsLog = join(dir, "payouts-server.log");
  const payoutsServer = spawn(productionServer, productionServerArgs, {
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(payoutsPort),
      DATABASE_URL: `sqlite:${join(dir, "e2e-payouts.sqlite")}`,
      STRIPE_SECRET_KEY: "sk_test_e2eFakeStripeKey0123456789",
      STRIPE_API_BASE: stripe.url,
      STRIPE_MAX_RPS: "20",
    },
    stdio: ["ignore", openSync(payoutsLog, "a"), openSync(payoutsLog, "a")],
  });
  const stopAll = async () => {
    if (payoutsServer.exitCode === null) {
      const exited = new Promise((r) => payoutsServer.once("exit", r));
      payoutsServer.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 6000))]);
      if (payoutsServer.exitCode === null) payoutsServer.kill("SIGKILL");
    }
    await stripe.close();
    await stop();
  };
  try {
    await waitForHealth(payoutsUrl, payoutsServer, payoutsLog);
  } catch (error) {
    await stopAll();
    throw error;
  }
  process.env.E2E_PAYOUTS_BASE_URL = payoutsUrl;
  console.log(`[e2e] payouts server at ${payoutsUrl} (pid ${payoutsServer.pid}, fake Stripe ${stripe.url})`);
  return stopAll;
}
