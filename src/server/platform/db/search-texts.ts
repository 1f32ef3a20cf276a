import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * What each indexed search matches, declared once. Two things in the database must agree with it,
 * and nothing at run time would notice if they did not:
 * - the search index: on SQLite a trigram table kept by triggers on the text columns, on PostgreSQL
 *   a generated lower-cased column over them (migrations 004, 005, 013, 019), for products copied
 *   by a trigger into a table of its own that holds the trigram index (migration 033);
 * - the version counter that kept answers of the search depend on (platform/db/versioned-memo.ts),
 *   moved by triggers on the same columns and on those filtered inside the index or kept with the
 *   matches (migrations 020, 021, 032). A column searched without moving the counter would leave kept matches stale for good.
 * A change here needs a migration that re-creates both; `search-texts.test.ts` fails until it does.
 */
export interface SearchTextDeclaration {
  table: "vendors" | "products";
  /** The columns a search's text is made of. */
  textColumns: readonly string[];
  /** Other columns a kept answer depends on (a status filtered inside the index, a price kept with the matches). */
  alsoVersionedBy: readonly string[];
  /** SQLite: the trigger that re-indexes a row when its text changes. */
  sqliteIndexTrigger: string;
  /** PostgreSQL: the generated column holding the text. */
  postgresColumn: string;
  /** PostgreSQL, where the text is indexed in a table of its own with the kept keys (products: a sale rewrites the row, decision 0026): the trigger that copies them there. */
  postgresIndexTrigger?: string;
  /** `counters` row versioning the kept answers. */
  versionCounter: string;
}

export const SEARCH_TEXTS: readonly SearchTextDeclaration[] = [
  {
    table: "vendors",
    textColumns: ["name", "owner_name", "email", "slug"],
    alsoVersionedBy: [],
    sqliteIndexTrigger: "vendor_search_update",
    postgresColumn: "search_text",
    versionCounter: "vendor_search_version",
  },
  {
    table: "products",
    textColumns: ["name"],
    alsoVersionedBy: ["status", "price_cents"],
    sqliteIndexTrigger: "product_search_update",
    postgresColumn: "name_search",
    postgresIndexTrigger: "product_search_update",
    versionCounter: "catalogue_version",
  },
];

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
const list = (columns: readonly string[]) => [...columns].sort().join(", ");

/** The columns of a trigger's `update of a, b` clause, as the database prints it back. */
function updateOfColumns(definition: string): string[] {
  const m = /update of ([\w\s,"]+?) on /i.exec(definition);
  return m ? m[1]!.split(",").map((c) => c.trim().replace(/"/g, "").toLowerCase()) : [];
}

/** Reads the definitions the declarations depend on from the migrated database: `name` → SQL. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reads catalogue tables, not the app's
async function readDefinitions(db: Kysely<any>, declarations: readonly SearchTextDeclaration[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const triggers = await sql<{ name: string; definition: string }>`select t.tgname as name, pg_get_triggerdef(t.oid) as definition
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and not t.tgisinternal`.execute(db);
    for (const t of triggers.rows) found.set(t.name, t.definition);
    for (const d of declarations) {
      const column = await sql<{ expression: string }>`select pg_get_expr(ad.adbin, ad.adrelid) as expression
        from pg_attrdef ad join pg_attribute a on a.attrelid = ad.adrelid and a.attnum = ad.adnum
        join pg_class c on c.oid = ad.adrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relname = ${d.table} and a.attname = ${d.postgresColumn}`.execute(db);
      if (column.rows[0]) found.set(`${d.table}.${d.postgresColumn}`, column.rows[0].expression);
    }
    return found;
  }
  const rows = await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master where type = 'trigger'`.execute(db);
  for (const r of rows.rows) found.set(r.name, r.definition);
  return found;
}

/**
 * Where the database disagrees with the declarations: one sentence each, naming the table, the
 * columns declared and those the index or the version triggers cover. Empty when they agree.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see readDefinitions
export async function searchTextDisagreements(db: Kysely<any>, declarations: readonly SearchTextDeclaration[] = SEARCH_TEXTS): Promise<string[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const definitions = await readDefinitions(db, declarations);
  const problems: string[] = [];
  for (const d of declarations) {
    const versioned = [...d.textColumns, ...d.alsoVersionedBy];
    const versionTrigger = definitions.get(postgres ? `${d.versionCounter}_change` : `${d.versionCounter}_update`);
    if (!versionTrigger) problems.push(`${d.table}: no trigger moves ${d.versionCounter}`);
    else if (!sameSet(updateOfColumns(versionTrigger), versioned)) {
      problems.push(`${d.table}: ${d.versionCounter} is declared to move on ${list(versioned)} but its trigger moves on ${list(updateOfColumns(versionTrigger))}`);
    }
    if (postgres) {
      const expression = definitions.get(`${d.table}.${d.postgresColumn}`);
      const missing = d.textColumns.filter((c) => !expression || !new RegExp(`\\b${c}\\b`).test(expression));
      if (missing.length > 0) problems.push(`${d.table}: the search text ${d.postgresColumn} is declared over ${list(d.textColumns)} but leaves out ${list(missing)}`);
      const copyTrigger = d.postgresIndexTrigger ? definitions.get(d.postgresIndexTrigger) : undefined;
      if (d.postgresIndexTrigger && !copyTrigger) problems.push(`${d.table}: no trigger ${d.postgresIndexTrigger} copies the search text into its index`);
      else if (copyTrigger && !sameSet(updateOfColumns(copyTrigger), versioned)) {
        // The table holds the text and what kept matches depend on, so it is copied when any of them changes.
        problems.push(`${d.table}: the search index is declared to hold ${list(versioned)} but ${d.postgresIndexTrigger} copies on ${list(updateOfColumns(copyTrigger))}`);
      }
    } else {
      const indexTrigger = definitions.get(d.sqliteIndexTrigger);
      if (!indexTrigger) problems.push(`${d.table}: no trigger ${d.sqliteIndexTrigger} keeps the search index`);
      else {
        const indexed = updateOfColumns(indexTrigger);
        const missing = d.textColumns.filter((c) => !new RegExp(`new\\.${c}\\b`).test(indexTrigger));
        if (!sameSet(indexed, d.textColumns) || missing.length > 0) {
          problems.push(`${d.table}: the search index is declared over ${list(d.textColumns)} but ${d.sqliteIndexTrigger} re-indexes on ${list(indexed)}`);
        }
      }
    }
  }
  return problems;
}
