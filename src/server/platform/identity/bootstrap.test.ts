import { describe, expect, it } from "vitest";
import { fixedClock } from "../clock.ts";
import { loadConfig } from "../config/config.ts";
import { openDatabase } from "../db/connect.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { ensureFirstAdmin, loadBetaGate } from "./bootstrap.ts";
import { verifyPassword } from "./password-hash.ts";

async function freshDb() {
  const database = openDatabase({ kind: "sqlite", path: ":memory:" });
  await migrateToLatest(database.db);
  return database;
}

describe("start-up secrets", () => {
  const clock = fixedClock("2026-11-22T00:00:00Z");

  it("creates the first admin with a generated password printed once, and never touches an existing admin", async () => {
    const database = await freshDb();
    const lines: string[] = [];
    await ensureFirstAdmin(database.db, clock, loadConfig({}), (l) => lines.push(l));
    expect(lines).toHaveLength(1);
    const password = /admin@hki\.global \/ (\S+)/.exec(lines[0]!)?.[1];
    expect(password).toBeTruthy();
    const user = await database.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    expect(user.role).toBe("admin");
    expect(user.password_hash).not.toContain(password!);
    expect(await verifyPassword(password!, user.password_hash!)).toBe(true);

    await ensureFirstAdmin(database.db, clock, loadConfig({ ADMIN_PASSWORD: "another-password" }), (l) => lines.push(l));
    expect(lines).toHaveLength(1);
    await database.close();
  });

  it("generates the beta password once, keeps only its hash, and accepts it after a restart", async () => {
    const database = await freshDb();
    const lines: string[] = [];
    const gate = await loadBetaGate(database.db, clock, loadConfig({}), (l) => lines.push(l));
    const password = /Beta password: (\S+)/.exec(lines[0]!)?.[1];
    expect(password).toBeTruthy();
    expect(gate.verify(password!)).toBe(true);
    expect(gate.verify("wrong")).toBe(false);
    const stored = await database.db.selectFrom("app_secrets").select("value").executeTakeFirstOrThrow();
    expect(stored.value).not.toContain(password!);

    const restarted = await loadBetaGate(database.db, clock, loadConfig({}), (l) => lines.push(l));
    expect(restarted.verify(password!)).toBe(true);
    expect(lines.slice(1).join("\n")).not.toContain(password!);
    await database.close();
  });

  it("uses BETA_PASSWORD when set", async () => {
    const database = await freshDb();
    const gate = await loadBetaGate(database.db, clock, loadConfig({ BETA_PASSWORD: "chosen-one" }), () => undefined);
    expect(gate.verify("chosen-one")).toBe(true);
    await database.close();
  });
});
