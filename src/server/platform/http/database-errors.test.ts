import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/connect.ts";
import { freePort } from "../free-port.ts";
import { classifyDatabaseFailure } from "./database-errors.ts";

/**
 * Only errors of the database clients are database outages (issue 18, finding 6): the same codes
 * from anywhere else (a client resetting its own request, an unreachable provider) are not.
 */
describe("database failures", () => {
  it("a client's reset mid-body (Node's 'aborted', ECONNRESET) and other network errors outside the database are not outages", () => {
    expect(classifyDatabaseFailure(Object.assign(new Error("aborted"), { code: "ECONNRESET" }))).toBeNull();
    expect(classifyDatabaseFailure(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:443"), { code: "ECONNREFUSED" }))).toBeNull();
    expect(classifyDatabaseFailure(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }))).toBeNull();
    expect(classifyDatabaseFailure(new Error("Connection terminated unexpectedly"))).toBeNull();
  });

  it("the SQLite client's own errors are", async () => {
    expect(classifyDatabaseFailure(new SQLite.SqliteError("database is locked", "SQLITE_BUSY"))).toBe("busy");
    expect(classifyDatabaseFailure(new SQLite.SqliteError("database or disk is full", "SQLITE_FULL"))).toBe("disk_full");
    const database = openDatabase({ kind: "sqlite", path: ":memory:" });
    database.sqlite!.close();
    const err = await database.db
      .selectFrom("users")
      .selectAll()
      .execute()
      .catch((e: unknown) => e);
    // A closed handle is a programming error, not an outage: thrown by the client, classified by its code.
    expect(err).toBeInstanceOf(Error);
    expect(classifyDatabaseFailure(err)).toBeNull();
  });

  it("a PostgreSQL server that refuses the connection is an outage: the pg client's ECONNREFUSED, marked by the driver", async () => {
    const port = await freePort();
    const database = openDatabase({ kind: "postgres", url: `postgres://nobody:nothing@127.0.0.1:${port}/none` });
    try {
      const err = await database.db
        .selectFrom("users")
        .selectAll()
        .execute()
        .catch((e: unknown) => e);
      expect((err as { code?: string }).code).toBe("ECONNREFUSED");
      expect(classifyDatabaseFailure(err)).toBe("unavailable");
    } finally {
      await database.close();
    }
  });
});
