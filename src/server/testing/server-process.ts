import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serverCommand } from "./server-command.ts";
import { TEST_PASSWORD } from "./test-app.ts";
import { RELIABILITY_ADMIN_EMAIL, reliabilityEnv } from "./file-app.ts";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  exited(): boolean;
  kill9(): Promise<void>;
  stop(): Promise<number | null>;
}

/**
 * Starts the real server (see serverCommand; from source unless `from: "build"`) on a free loopback
 * port and waits until it answers /api/health. Fails with the process output if it exits or stays
 * silent for `timeoutMs`.
 */
export async function startServer(databaseUrl: string, options: { env?: Record<string, string>; timeoutMs?: number; from?: "source" | "build" } = {}): Promise<ServerProcess> {
  const [command, ...args] = serverCommand(options.from ?? "source");
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...reliabilityEnv(databaseUrl, { PORT: "0", HOST: "127.0.0.1", ...options.env }) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let exitCode: number | null | undefined;
  const exit = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let url: string | null = null;
  while (!url) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode} before listening:\n${out}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start in time:\n${out}`);
    }
    const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
    if (match) url = match[1]!;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    output: () => out,
    exited: () => exitCode !== undefined,
    async kill9() {
      if (exitCode === undefined) child.kill("SIGKILL");
      await exit;
    },
    async stop() {
      if (exitCode === undefined) child.kill("SIGTERM");
      return exit;
    },
  };
}

/** Waits until `spawn` exits and returns its code and output (start-up failures). */
export function runServerToExit(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: { timeoutMs?: number; from?: "source" | "build" } = {},
): Promise<{ code: number | null; output: string }> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const [command, ...args] = serverCommand(options.from ?? "source");
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...reliabilityEnv(databaseUrl, { PORT: "0", HOST: "127.0.0.1", ...env }) }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output: out });
    });
  });
}

export async function signInAdmin(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: RELIABILITY_ADMIN_EMAIL, password: TEST_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}
