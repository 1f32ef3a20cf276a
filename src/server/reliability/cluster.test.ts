import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, signInAdmin, startServer } from "../testing/server-process.ts";

/** One request on a connection of its own, so the cluster's round robin spreads them over the workers. */
function getOnNewConnection(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}

function workerPids(primary: number): number[] {
  return readFileSync(`/proc/${primary}/task/${primary}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
}

const listeningPorts = (server: ServerProcess) => [...server.output().matchAll(/listening on http:\/\/[\d.]+:(\d+)/g)].map((m) => m[1]);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(process.platform === "linux")("WEB_CONCURRENCY=2: two server processes over one SQLite file", () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hki-cluster-"));
    server = await startServer(`sqlite:${join(dir, "admin.sqlite")}`, { env: { SEED_DEMO: "true", WEB_CONCURRENCY: "2" } });
    // startServer returns at the first worker's line; the second starts once the first listens.
    const deadline = Date.now() + 30_000;
    while (!server.output().includes("Running 2 server processes") || listeningPorts(server).length < 2) {
      if (Date.now() > deadline) throw new Error(`the second worker did not start:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 120_000);
  afterAll(async () => {
    if (!server.exited()) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs two workers under one supervisor on one port, with the demo data made once", async () => {
    expect(workerPids(server.child.pid!)).toHaveLength(2);
    expect(server.output().match(/Filled the empty database with demo data/g)).toHaveLength(1);
    const ports = listeningPorts(server);
    expect(ports).toHaveLength(2);
    expect(new Set(ports).size).toBe(1);
  });

  it("serves a token from either worker and refuses it on every worker once signed out", async () => {
    const token = await signInAdmin(server.url);
    const stats = `${server.url}/api/admin/dashboard/stats`;
    const before = await Promise.all(Array.from({ length: 12 }, () => getOnNewConnection(stats, token)));
    expect(before.every((status) => status === 200)).toBe(true);

    const out = await fetch(`${server.url}/api/auth/sign-out`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBeLessThan(300);
    // The other worker had the session cached: its data version moved with the sign-out's commit.
    const after = await Promise.all(Array.from({ length: 12 }, () => getOnNewConnection(stats, token)));
    expect(after).toEqual(Array.from({ length: 12 }, () => 401));
  });

  it("replaces a worker that dies, and keeps answering meanwhile", async () => {
    const [victim] = workerPids(server.child.pid!);
    process.kill(victim!, "SIGKILL");
    while (alive(victim!)) await new Promise((resolve) => setTimeout(resolve, 20));
    // Connections the dead worker held are lost with it; new ones go to the survivor.
    const token = await signInAdmin(server.url);
    const during = await Promise.all(Array.from({ length: 6 }, () => getOnNewConnection(`${server.url}/api/admin/settings`, token)));
    expect(during.every((status) => status === 200)).toBe(true);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !(workerPids(server.child.pid!).length === 2 && !workerPids(server.child.pid!).includes(victim!))) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const now = workerPids(server.child.pid!);
    expect(now).toHaveLength(2);
    expect(now).not.toContain(victim);
  }, 30_000);

  it("stops every worker on SIGTERM", async () => {
    const workers = workerPids(server.child.pid!);
    expect(await server.stop()).toBe(0);
    expect(workers.filter(alive)).toEqual([]);
  }, 30_000);
});
