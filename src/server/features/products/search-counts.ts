import { readCatalogueVersion } from "../../domain/ledger/counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { VersionedMemo } from "../../platform/db/versioned-memo.ts";
import { countSearchInIndex, type SearchCounts } from "./products.queries.ts";

/** Searches whose counts are kept; the least recently used goes first. */
const MAX_SEARCHES = 256;

/**
 * Keeps what a search across vendors counted (its matches up to the cap, and per status), per
 * catalogue version (migration 020: it moves in the same transaction as any product added,
 * deleted, renamed or changing status, whichever process or replica commits it). Who matches a
 * search depends on names and statuses only, so a kept count is exact until the catalogue changes;
 * sales, prices and stock do not touch it. At a million products a broad search's count to the cap
 * costs 3–12 ms of trigram reading (docs/performance.md), the rest of its page well under 2 ms:
 * paging through a search, coming back to it, or several admins on the same search count it once.
 */
export class SearchCountMemo {
  private readonly memo: VersionedMemo<number>;

  constructor(maxSearches = MAX_SEARCHES) {
    this.memo = new VersionedMemo("search-count", maxSearches);
  }

  /**
   * The counts of one request: the catalogue's version is read once, at the first count asked
   * (a list without a search across vendors asks none), and the memo answers at that version.
   */
  at(db: Executor): SearchCounts {
    const direct = countSearchInIndex(db);
    let version: Promise<number> | undefined;
    const versionOnce = () => (version ??= readCatalogueVersion(db));
    return {
      matched: async (search, cap) => this.memo.read(await versionOnce(), `${cap}\u0000${search}`, () => direct.matched(search, cap)),
      ofStatus: async (search, status, cap) => this.memo.read(await versionOnce(), `${cap}\u0000${search}\u0000${status}`, () => direct.ofStatus(search, status, cap)),
    };
  }
}
