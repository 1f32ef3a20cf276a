import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { backupPostgres, libpqConnection, postgresSchemaOf } from "./backup.ts";

/** The end-to-end backups and restores under load are in cli/database-commands.test.ts. */
describe("PostgreSQL backups without pg_dump", () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it("print the exact command to run elsewhere, the password left to PGPASSWORD, and write nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "hki-backup-"));
    const file = join(dir, "panel.dump");
    process.env.PATH = dir; // no pg_dump there
    try {
      const result = backupPostgres("postgres://hki:p%40ss%2Fword@db.example:5432/hki?sslmode=no-verify", file);
      expect(result).toEqual({
        ran: false,
        bytes: 0,
        command: `PGPASSWORD='<the password of DATABASE_URL>' pg_dump --format=custom --file=${file} '--dbname=postgres://hki@db.example:5432/hki?sslmode=require'`,
      });
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("libpqConnection (what pg_dump and pg_restore are given)", () => {
  it("moves the password out of the URL, decoded", () => {
    expect(libpqConnection("postgres://hki:p%40ss%2Fw%3Ard@db:5432/hki")).toEqual({ url: "postgres://hki@db:5432/hki", password: "p@ss/w:rd" });
    expect(libpqConnection("postgresql://hki@db/hki")).toEqual({ url: "postgresql://hki@db/hki", password: undefined });
  });

  it("spells node-postgres' TLS options the way libpq reads them, and spaces as %20", () => {
    expect(libpqConnection("postgres://u@db/hki?sslmode=verify-full&sslrootcert=/ca.pem").url).toBe("postgres://u@db/hki?sslmode=verify-full&sslrootcert=%2Fca.pem");
    expect(libpqConnection("postgres://u@db/hki?ssl=true&uselibpqcompat=true").url).toBe("postgres://u@db/hki?sslmode=require");
    expect(libpqConnection("postgres://u@db/hki?options=-c+search_path%3Dpanel").url).toBe("postgres://u@db/hki?options=-c%20search_path%3Dpanel");
  });

  it("names the schema a URL puts the panel in", () => {
    expect(postgresSchemaOf("postgres://u@db/hki")).toBe("public");
    expect(postgresSchemaOf("postgres://u@db/hki?options=-c%20search_path%3Dpanel")).toBe("panel");
    expect(postgresSchemaOf("postgres://u@db/hki?options=--search_path%3Dpanel,public")).toBe("panel");
  });
});
