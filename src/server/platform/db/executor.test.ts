import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./connect.ts";
import { inSavepoint } from "./executor.ts";

describe("inSavepoint", () => {
  let database: Database;
  beforeEach(async () => {
    database = openDatabase({ kind: "sqlite", path: ":memory:" });
    await sql`create table notes (body text not null)`.execute(database.db);
  });
  afterEach(async () => {
    await database.close();
  });
  const bodies = async () => (await sql<{ body: string }>`select body from notes order by rowid`.execute(database.db)).rows.map((r) => r.body);

  it("rolls back only what failed inside it; the transaction goes on and commits the rest", async () => {
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into notes values ('before')`.execute(trx);
      await expect(
        inSavepoint(trx, "step", async () => {
          await sql`insert into notes values ('failed')`.execute(trx);
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      expect(await inSavepoint(trx, "step", async () => (await sql`insert into notes values ('after')`.execute(trx), "kept"))).toBe("kept");
    });
    expect(await bodies()).toEqual(["before", "after"]);
  });

  it("needs an open transaction", async () => {
    await expect(inSavepoint(database.db, "step", async () => 1)).rejects.toThrow("open transaction");
  });
});
