import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";

/**
 * Counts the statements of this process that changed rows (INSERT, UPDATE, DELETE, raw SQL alike:
 * whatever reports affected rows). It is PostgreSQL's Database.dataVersion (connect.ts; SQLite
 * asks the engine instead), so the read cache sees this process's own writes at once. A
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
