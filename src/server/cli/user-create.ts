import { systemClock } from "../platform/clock.ts";
import { ConfigError, loadConfig } from "../platform/config/config.ts";
import { openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import { runUserCreate } from "./user-create-command.ts";

/** npm run user:create -- --email E --password P [--role admin|viewer|user] [--name N] [--update] (see user-create-command.ts) */
async function main(): Promise<number> {
  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    return await runUserCreate(process.argv.slice(2), database.db, systemClock, { out: (line) => console.log(line), err: (line) => console.error(line) });
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`user:create: ${err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
