import cluster from "node:cluster";
import { runClusterPrimary } from "./cluster-primary.ts";
import { ConfigError, loadConfig } from "./platform/config/config.ts";
import { readEnvFile } from "./platform/config/env-file.ts";

/**
 * Process entry. Kept small on purpose: a cluster primary (WEB_CONCURRENCY > 1) only supervises,
 * so it loads the configuration and nothing else (~40 MB instead of ~90 MB with the whole app);
 * the server itself (serve.ts) is imported only where it runs.
 */
async function main(): Promise<void> {
  // `main.js <command> …` runs an operator's command (cli/commands.ts: db:migrate, db:backup,
  // db:restore, user:create) on the same configuration instead of serving.
  const [command, ...args] = process.argv.slice(2);
  let config;
  try {
    // .env in the working directory, when present (the environment wins over it): .env.example.
    readEnvFile();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) console.error(`Configuration error: ${line}`);
      process.exit(1);
    }
    throw err;
  }

  if (command !== undefined) {
    const { runCommand } = await import("./cli/commands.ts");
    process.exit(await runCommand(command, args, config));
  }
  if (config.workers > 1 && cluster.isPrimary) {
    await runClusterPrimary(config.workers, config.port, config.host, config.metricsPort);
    return;
  }
  const { runServer } = await import("./serve.ts");
  await runServer(config);
}

main().catch((err: unknown) => {
  console.error(`Failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
