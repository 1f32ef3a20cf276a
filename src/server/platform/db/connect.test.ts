import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./connect.ts";

describe("openDatabase (SQLite)", () => {
  it("creates the file on a first start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "db-"));
    const database = openDatabase({ kind: "sqlite", path: join(dir, "nested/admin.sqlite") });
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start empty when the database vanished but its journal files remain", () => {
    const dir = mkdtempSync(join(tmpdir(), "db-"));
    const path = join(dir, "admin.sqlite");
    writeFileSync(`${path}-wal`, "");
    expect(() => openDatabase({ kind: "sqlite", path })).toThrow(/missing but its journal files are present/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a file that is not a database", () => {
    const dir = mkdtempSync(join(tmpdir(), "db-"));
    const path = join(dir, "admin.sqlite");
    writeFileSync(path, "this is not a database ".repeat(100));
    expect(() => openDatabase({ kind: "sqlite", path })).toThrow(/not a database/);
    rmSync(dir, { recursive: true, force: true });
  });
});
