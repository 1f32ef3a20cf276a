import { createHash } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { DB } from "../platform/db/schema.ts";

/**
 * Row count and a sha256 of every row of every table (rows sorted, so the order a database returns
 * them in does not matter). Two equal checksums mean nothing was written in between.
 */
export async function databaseChecksum(db: Kysely<DB>, options: { exclude?: string[] } = {}): Promise<Record<string, string>> {
  const all = await db.introspection.getTables();
  // PostgreSQL lists every schema's tables (other tests', the benchmark's): only this connection's own count.
  const own = all.some((t) => t.schema) ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const tables = all
    .filter((t) => own === undefined || t.schema === own)
    .map((t) => t.name)
    .filter((name) => !options.exclude?.includes(name) && !name.startsWith("kysely_"));
  const out: Record<string, string> = {};
  for (const table of tables.sort()) {
    const rows = await (db as unknown as Kysely<Record<string, Record<string, unknown>>>).selectFrom(table).selectAll().execute();
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    out[table] = `${rows.length}:${createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16)}`;
  }
  return out;
}
