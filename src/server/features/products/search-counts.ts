import { CATALOGUE_VERSION } from "../../domain/ledger/counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { VersionedMemo } from "../../platform/db/versioned-memo.ts";
import { type KeptMatch, readSearchIndex, type SearchIndexReads } from "./products.queries.ts";

/** Searches whose counts are kept; the least recently used goes first. */
const MAX_SEARCHES = 256;

/** Searches whose matches are kept (up to the cap, 10,000, of ~150 bytes each: 24 MB at most, a few hundred KB usually). */
const MAX_MATCH_LISTS = 16;

/**
 * Keeps what a search across vendors read from the trigram index (its matches counted up to the
 * cap and per status, and the matches themselves with their status, price and creation time), per
 * catalogue version (migrations 020, 032: it moves in the same transaction as any product added,
 * deleted, renamed, repriced or changing status, whichever process or replica commits it). So what
 * is kept is exact until the catalogue changes; sales and stock do not touch it (they are read per
 * request). At a million products a broad search's count to the cap costs
 * 3–12 ms of trigram reading, and on PostgreSQL reading a full name's ~300 matches through the
 * trigram index (each rechecked against its row) ~4 ms: paging through a
 * search, coming back to it, or several admins on the same search read the index once.
 */
export class SearchIndexMemo {
  private readonly counts: VersionedMemo<number>;
  private readonly matchLists = new VersionedMemo<KeptMatch[]>("search-count", CATALOGUE_VERSION, MAX_MATCH_LISTS);

  constructor(maxSearches = MAX_SEARCHES) {
    this.counts = new VersionedMemo("search-count", CATALOGUE_VERSION, maxSearches);
  }

  /**
   * The index reads of one request: the catalogue's version is read once, at the first read asked
   * (a list without a search across vendors asks none), and the memo answers at that version.
   */
  at(db: Executor): SearchIndexReads {
    const direct = readSearchIndex(db);
    const counts = this.counts.at(db);
    const matchLists = this.matchLists.at(db);
    return {
      matched: (search, cap) => counts(`${cap}\u0000${search}`, () => direct.matched(search, cap)),
      ofStatus: (search, status, cap) => counts(`${cap}\u0000${search}\u0000${status}`, () => direct.ofStatus(search, status, cap)),
      keptMatches: (search, limit) => matchLists(`${limit}\u0000${search}`, () => direct.keptMatches(search, limit)),
    };
  }
}
