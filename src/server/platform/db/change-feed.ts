import pg from "pg";
import { logEvent, processLog } from "../logging/logger.ts";

/**
 * PostgreSQL only: how one server process learns that ANOTHER process (a replica, a CLI, psql)
 * committed a change, so the caches keyed on Database.dataVersion (read-cache.ts, the session cache)
 * stay exact across replicas (docs/decisions/0014-caches-across-replicas.md).
 *
 * - Every base table of the schema carries statement-level triggers (insert, update, delete,
 *   truncate) that call `pg_notify(CHANGE_CHANNEL, <schema>)` when the statement changed at least
 *   one row. A notification is sent at COMMIT only (never for rolled-back work), once per
 *   transaction and schema (PostgreSQL folds identical ones), in commit order.
 * - Each process keeps one dedicated connection LISTENing on the channel; every notification for
 *   its schema moves `epoch`, which is part of the process's data version.
 * - The listening connection is checked every HEARTBEAT_MS with a trivial query (notifications
 *   committed before it are delivered before its answer). When it errs, ends, or does not answer
 *   within HEARTBEAT_DEADLINE_MS, the feed is down: `live` turns false and the caches are bypassed
 *   until a new connection listens again (then `epoch` moves once more, for what was missed).
 *   So a lost connection can hide another process's change for at most ~HEARTBEAT_MS +
 *   HEARTBEAT_DEADLINE_MS.
 */
export const CHANGE_CHANNEL = "hki_data_changed";
export const FEED_APPLICATION_NAME = "hki-change-feed";
const HEARTBEAT_MS = 250;
const HEARTBEAT_DEADLINE_MS = 600;
const RECONNECT_MS = 1000;
const TRIGGER_FUNCTION = "hki_note_data_change";
/** Any fixed 64-bit key: installers on several replicas take turns (pg_advisory_xact_lock). */
const INSTALL_LOCK_KEY = 7_202_611_230;

type Queryable = Pick<pg.Client, "query">;

/**
 * Makes sure every base table of the current schema notifies CHANGE_CHANNEL when a statement
 * changes rows. Idempotent and cheap when nothing is missing (one catalogue query); run at every
 * start after the migrations, so tables added by later migrations are covered too. Tables whose
 * names start with `kysely_` (the migrator's own) are left out.
 */
export async function installChangeNotifications(client: Queryable): Promise<void> {
  await client.query("begin");
  try {
    await client.query("select pg_advisory_xact_lock($1)", [INSTALL_LOCK_KEY]);
    // `changed` is the statement's transition table: empty when the statement matched no row.
    await client.query(`
      create or replace function ${TRIGGER_FUNCTION}() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from changed) then
          perform pg_notify('${CHANGE_CHANNEL}', tg_table_schema);
        end if;
        return null;
      end $$`);
    // TRUNCATE has no transition table: it always notifies.
    await client.query(`
      create or replace function ${TRIGGER_FUNCTION}_truncate() returns trigger language plpgsql as $$
      begin
        perform pg_notify('${CHANGE_CHANNEL}', tg_table_schema);
        return null;
      end $$`);
    const { rows } = await client.query<{ table_name: string; op: string }>(
      `select c.relname as table_name, op.op
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
         cross join (values ('insert'), ('update'), ('delete'), ('truncate')) as op(op)
        where c.relkind = 'r' and c.relname not like 'kysely\\_%'
          and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'hki_change_' || op.op)`,
    );
    for (const { table_name: table, op } of rows) {
      const name = pg.escapeIdentifier(`hki_change_${op}`);
      const target = pg.escapeIdentifier(table);
      if (op === "truncate") {
        await client.query(`create trigger ${name} after truncate on ${target} for each statement execute function ${TRIGGER_FUNCTION}_truncate()`);
      } else {
        const transition = op === "delete" ? "old table as changed" : "new table as changed";
        await client.query(`create trigger ${name} after ${op} on ${target} referencing ${transition} for each statement execute function ${TRIGGER_FUNCTION}()`);
      }
    }
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  }
}

export interface ChangeFeedOptions {
  connectionString: string;
  searchPath?: string;
  /** Where a lost connection is reported (default: an error line in the process log). */
  report?: (line: string) => void;
}

export class ChangeFeed {
  /** Moves on every notification of this schema, and once each time the feed comes back. */
  epoch = 0;
  /** True while the listening connection is known to work: only then may caches trust the version. */
  live = false;
  private client: pg.Client | undefined;
  private schema = "";
  private heartbeat: NodeJS.Timeout | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private pendingSince: number | null = null;
  private stopped = false;
  private readonly report: (line: string) => void;

  constructor(private readonly options: ChangeFeedOptions) {
    this.report = options.report ?? ((line) => logEvent(processLog(), "error", line));
  }

  /** Installs the triggers and listens; resolves once listening, or rejects (the feed then retries by itself). */
  async start(): Promise<void> {
    this.stopped = false;
    try {
      await this.connect();
    } catch (err) {
      this.scheduleReconnect();
      throw err;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.live = false;
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      connectionTimeoutMillis: 5000,
      ...(this.options.searchPath ? { options: `-c search_path=${this.options.searchPath}` } : {}),
    });
    client.on("error", (err) => this.lost(client, `error: ${err.message}`));
    client.on("end", () => this.lost(client, "connection ended"));
    client.on("notification", (message) => {
      if (message.channel === CHANGE_CHANNEL && message.payload === this.schema) this.epoch += 1;
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>("select current_schema() as schema");
      this.schema = rows[0]?.schema ?? "public";
      // Named, so an operator (or a test) can tell the listening connection in pg_stat_activity.
      await client.query("select set_config('application_name', $1, false)", [`${FEED_APPLICATION_NAME}:${this.schema}`.slice(0, 63)]);
      // Every (re)connection checks the triggers: the feed must never listen on a schema that cannot notify.
      await installChangeNotifications(client);
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.pendingSince = null;
    // Whatever happened while nobody listened is unknown: everything cached before is stale.
    this.epoch += 1;
    this.live = true;
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => this.beat(client), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private beat(client: pg.Client): void {
    if (client !== this.client) return;
    const now = Date.now();
    if (this.pendingSince !== null) {
      if (now - this.pendingSince > HEARTBEAT_DEADLINE_MS) this.lost(client, `no answer within ${HEARTBEAT_DEADLINE_MS} ms`);
      return;
    }
    this.pendingSince = now;
    client.query("select 1").then(
      () => {
        if (client === this.client) this.pendingSince = null;
      },
      (err: unknown) => this.lost(client, `heartbeat failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private lost(client: pg.Client, why: string): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.live = false;
    clearInterval(this.heartbeat);
    if (!this.stopped) this.report(`[db] change feed down (${why}): caches bypassed until it listens again`);
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    clearTimeout(this.reconnect);
    this.reconnect = setTimeout(() => {
      this.connect().catch((err: unknown) => {
        this.report(`[db] change feed reconnect failed: ${err instanceof Error ? err.message : String(err)}`);
        this.scheduleReconnect();
      });
    }, RECONNECT_MS);
    this.reconnect.unref();
  }
}
