import cluster from "node:cluster";
import { serve } from "@hono/node-server";
import { fileURLToPath } from "node:url";
import { createApp } from "./app.ts";
import { runClusterPrimary } from "./cluster-primary.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { webAppIsBuilt } from "./http/static-files.ts";
import { createRuntime } from "./runtime.ts";

const WEB_ROOT = fileURLToPath(new URL("../../dist/web", import.meta.url));

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  if (config.workers > 1 && cluster.isPrimary) {
    await runClusterPrimary(config.workers, config.port, config.host);
    return;
  }

  const deps = await createRuntime(config, { staticRoot: WEB_ROOT });
  if (!webAppIsBuilt(WEB_ROOT)) console.warn("The web app is not built (dist/web missing): only the API is served. Run `npm run build`.");
  const app = createApp(deps);

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    console.log(`HKI Global Admin listening on http://${config.host}:${info.port} (database: ${deps.database.kind})`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    server.close(() => {
      void deps.database.close().finally(() => process.exit(0));
    });
    // Keep-alive connections may hold close() open; do not hang forever.
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: unknown) => {
  console.error(`Failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
