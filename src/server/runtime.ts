import type { AppDeps } from "./platform/request/app-env.ts";
import type { AuthProvider } from "./platform/identity/auth-provider.ts";
import { ensureFirstAdmin, loadBetaGate } from "./platform/identity/bootstrap.ts";
import { ClerkAuthProvider } from "./platform/identity/clerk-auth-provider.ts";
import { LocalAuthProvider } from "./platform/identity/local-auth-provider.ts";
import { SessionCache } from "./platform/identity/session-cache.ts";
import { type Clock, systemClock } from "./platform/clock.ts";
import type { AppConfig } from "./platform/config/config.ts";
import { type Database, openDatabase } from "./platform/db/connect.ts";
import { migrateToLatest } from "./platform/db/migrate.ts";
import { ReadCache } from "./platform/db/read-cache.ts";
import { JobQueue } from "./platform/jobs/job-queue.ts";
import { seedDemoData } from "./demo-data/demo.ts";
import { createExternalUser } from "./platform/identity/users.ts";
import { ErrorRecorder } from "./platform/error-recorder/error-recorder.ts";
import { RateLimiter } from "./platform/http/rate-limiter.ts";
import { SignInThrottle } from "./platform/identity/sign-in-throttle.ts";
import { type Logger, createLogger, logEvent, logLifecycle, setProcessLog } from "./platform/logging/logger.ts";
import { ensureDefaultSettings } from "./domain/settings/settings.queries.ts";
import { loadWebhookSealingKey } from "./platform/identity/webhook-sealing-key.ts";

export interface RuntimeOptions {
  clock?: Clock;
  /** Where the operator's one-time notices go (generated secrets are printed here once); default: stdout as plain text. */
  announce?: (line: string) => void;
  /** Use an already open database (tests). */
  database?: Database;
  staticRoot?: string;
  fetchImpl?: typeof fetch;
  /** The JSON log (tests pass their own, or a silent one); default: stdout at LOG_LEVEL. */
  logger?: Logger;
  /**
   * PostgreSQL: listen for other processes' commits so sessions and read answers can be cached
   * exactly across replicas (Database.watchOtherProcesses). Default true.
   */
  watchOtherProcesses?: boolean;
}

/**
 * Everything `main.ts` does before listening, reusable by tests: open and migrate the database,
 * make sure the settings, the first admin and (when asked) the demo data exist, wire the providers.
 */
export async function createRuntime(config: AppConfig, options: RuntimeOptions = {}): Promise<AppDeps> {
  const clock = options.clock ?? systemClock;
  // Plain text on purpose, the one exception to the JSON log: these lines hand a generated
  // first-admin or beta password to the person starting the server, once; through the redactor
  // (as every log line goes) the password would be scrubbed, and it belongs in no log store anyway.
  // eslint-disable-next-line no-console
  const announce = options.announce ?? ((line: string) => console.log(line));
  const logger = options.logger ?? createLogger(config.logLevel);
  // Code outside requests (database driver, job worker, change feed, error recorder) logs here too.
  setProcessLog(logger);
  const database = options.database ?? openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    await ensureDefaultSettings(database.db, clock);
    // Under Clerk the admins are Clerk users (role in public metadata, or the company domain).
    if (config.authProvider === "local") await ensureFirstAdmin(database.db, clock, config, announce);
    if (config.seedDemo) {
      const summary = await seedDemoData(database.db, {
        clock,
        // Vendor owners get accounts without a password: they exist so that deleting a vendor
        // can delete its owner's account, as the delete dialog promises (docs/product.md §4.3).
        createOwnerUser: (trx, owner) => createExternalUser(trx, clock, owner),
        adminEmail: config.adminEmail,
      });
      if (summary.seeded) logLifecycle(logger, "Filled the empty database with demo data (SEED_DEMO)", { vendors: summary.vendors, products: summary.products, orders: summary.orders });
    }
    const watching = options.watchOtherProcesses ?? true;
    if (watching) {
      // Not listening yet (PostgreSQL down or refusing LISTEN) is no reason to refuse to start: the
      // feed retries by itself and the caches are bypassed until it listens.
      await database.watchOtherProcesses().catch((err: unknown) => {
        logEvent(logger, "error", "change feed not started, caches bypassed until it is", { err });
      });
    }
    const beta = await loadBetaGate(database.db, clock, config, announce);
    await loadWebhookSealingKey(database.db, clock, config, announce);
    const limiter = new RateLimiter(database.db, clock);
    const auth: AuthProvider = createAuthProvider(config, database, clock, watching, options.fetchImpl);
    return {
      config,
      database,
      clock,
      auth,
      beta,
      limiter,
      errors: new ErrorRecorder(database.db, clock, limiter),
      readCache: new ReadCache(clock, database.dataVersion),
      jobs: new JobQueue(database, clock),
      signInThrottle: new SignInThrottle(),
      logger,
      ...(options.staticRoot ? { staticRoot: options.staticRoot } : {}),
      ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    };
  } catch (err) {
    if (!options.database) await database.close().catch(() => undefined);
    throw err;
  }
}

function createAuthProvider(config: AppConfig, database: Database, clock: Clock, watching: boolean, fetchImpl?: typeof fetch): AuthProvider {
  if (config.authProvider === "clerk") {
    return new ClerkAuthProvider({
      secretKey: config.clerkSecretKey!,
      apiUrl: config.clerkApiUrl,
      issuer: config.clerkIssuer!,
      authorizedParties: config.clerkAuthorizedParties,
      clock,
      ...(fetchImpl ? { fetchImpl } : {}),
    });
  }
  // Sessions are cached only where the data version can cover other processes (SQLite, or PostgreSQL
  // with its change feed; while the feed is down the version never repeats): see session-cache.ts.
  const exact = database.kind === "sqlite" || watching;
  return new LocalAuthProvider(database.db, clock, exact ? new SessionCache(database.dataVersion) : undefined);
}
