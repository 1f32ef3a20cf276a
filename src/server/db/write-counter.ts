import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";

/**
 * Counts the statements of this process that changed rows (INSERT, UPDATE, DELETE, raw SQL alike:
 * whatever reports affected rows), on SQLite and PostgreSQL. Short-lived caches of derived
 * answers (read-cache.ts) compare the count to see this process's own writes at once. A
 * statement rolled back afterwards still counts: it only makes a cache recompute needlessly.
 */
export class WriteCounter implements KyselyPlugin {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const affected = args.result.numAffectedRows;
    if (affected !== undefined && affected > 0n) this.#count += 1;
    return args.result;
  }
}
