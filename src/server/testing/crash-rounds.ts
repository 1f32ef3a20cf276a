import SQLite from "better-sqlite3";
import { Kysely } from "kysely";
import { openDatabase } from "../platform/db/connect.ts";
import type { DB } from "../platform/db/schema.ts";
import { compareRollups } from "../domain/ledger/recompute.ts";
import { type ServerProcess, signInAdmin, startServer } from "./server-process.ts";

export interface CrashRoundResult {
  round: number;
  acknowledged: number;
  integrity: string;
  missing: string[];
  rollupDifferences: number;
}

/**
 * kill -9 during a stream of acknowledged writes, `rounds` times over one SQLite file. Writes are
 * settings changes (each leaves a history row with its unique value) and vendor enable/disable
 * toggles (each one transaction over vendors, counters and the audit log). After every kill the
 * file must pass PRAGMA integrity_check, hold every acknowledged write, and its rollups/counters
 * must equal a recomputation from the raw rows (no half-applied transaction).
 */
export async function runCrashRounds(dbPath: string, options: { rounds: number; streams?: number; log?: (line: string) => void; from?: "source" | "build" }): Promise<CrashRoundResult[]> {
  const results: CrashRoundResult[] = [];
  const log = options.log ?? (() => undefined);
  const streams = options.streams ?? 4;
  let token: string | null = null;
  for (let round = 1; round <= options.rounds; round++) {
    const server = await startServer(`sqlite:${dbPath}`, { env: { SEED_DEMO: "true" }, from: options.from ?? "source" });
    token ??= await signInAdmin(server.url);
    const vendorIds = await listVendorIds(server.url, token, streams);
    const acked: string[] = [];
    const vendorState = new Map<string, { acked: boolean | null; inFlight: boolean | null }>();
    let killed = false;
    let vendorAcks = 0;

    const stream = async (slot: number) => {
      for (let n = 0; !killed; n++) {
        try {
          if (slot % 2 === 0) {
            const value = `crash-${round}-${slot}-${n}`;
            const res = await send(server, token!, "PUT", "/api/admin/settings", { announcement_message: value });
            if (res === 200) acked.push(value);
          } else {
            const vendorId = vendorIds[slot % vendorIds.length]!;
            const state = vendorState.get(vendorId) ?? { acked: null, inFlight: null };
            vendorState.set(vendorId, state);
            const isActive = n % 2 === 0;
            state.inFlight = isActive;
            const res = await send(server, token!, "PATCH", `/api/vendors/${vendorId}/status`, { isActive });
            if (res === 200) {
              state.acked = isActive;
              state.inFlight = null;
              vendorAcks += 1;
            }
          }
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const running = Array.from({ length: streams }, (_, slot) => stream(slot));
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.floor(Math.random() * 900)));
    killed = true;
    await server.kill9();
    await Promise.all(running);
    // The kill must have taken the server itself down, not just a launcher in front of it.
    const stillAnswering = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
    if (stillAnswering) throw new Error(`round ${round}: the server still answers after kill -9`);

    const check = await verifyFile(dbPath, acked, vendorState);
    results.push({ round, acknowledged: acked.length + vendorAcks, ...check });
    log(
      `round ${round}: ${acked.length} settings changes and ${vendorAcks} vendor toggles acknowledged, integrity ${check.integrity}, missing ${check.missing.length}, rollup differences ${check.rollupDifferences}`,
    );
  }
  return results;
}

async function send(server: ServerProcess, token: string, method: string, path: string, body: unknown): Promise<number> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

async function listVendorIds(url: string, token: string, count: number): Promise<string[]> {
  const res = await fetch(`${url}/api/admin/vendors?limit=${count}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { vendors?: Array<{ id: string }> };
  const ids = (body.vendors ?? []).map((v) => v.id);
  if (ids.length === 0) throw new Error(`no vendors to toggle: ${JSON.stringify(body).slice(0, 200)}`);
  return ids;
}

async function verifyFile(dbPath: string, acked: string[], vendorState: Map<string, { acked: boolean | null; inFlight: boolean | null }>): Promise<Omit<CrashRoundResult, "round" | "acknowledged">> {
  // A plain connection first: opening it replays the WAL left by the killed process.
  const raw = new SQLite(dbPath);
  const integrity = (raw.pragma("integrity_check", { simple: true }) as string) ?? "";
  raw.close();
  const database = openDatabase({ kind: "sqlite", path: dbPath });
  const db: Kysely<DB> = database.db;
  try {
    const missing: string[] = [];
    const present = new Set(acked.length ? (await db.selectFrom("platform_setting_changes").select("new_value").where("new_value", "in", acked).execute()).map((r) => r.new_value) : []);
    for (const value of acked) if (!present.has(value)) missing.push(`setting ${value}`);
    for (const [vendorId, state] of vendorState) {
      if (state.acked === null) continue;
      const row = await db.selectFrom("vendors").select("is_active").where("id", "=", vendorId).executeTakeFirst();
      const actual = row?.is_active === 1;
      if (actual !== state.acked && actual !== state.inFlight) missing.push(`vendor ${vendorId} is_active ${actual}, acknowledged ${state.acked}`);
    }
    const differences = await compareRollups(db);
    return { integrity, missing, rollupDifferences: differences.length };
  } finally {
    await database.close();
  }
}
