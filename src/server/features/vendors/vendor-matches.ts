import { VENDOR_SEARCH_SORT_CAP } from "../../../contract/vendors.ts";
import { VENDOR_SEARCH_VERSION } from "../../domain/ledger/counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { VersionedMemo } from "../../platform/db/versioned-memo.ts";
import { type MatchesOf, type SearchMatches, sqliteMatchKeys } from "./vendors.queries.ts";

/** Searches whose matches are kept; the least recently used goes first. */
const MAX_SEARCHES = 256;

/** Matches kept per search: as many as a search may be sorted by (more means the search is broad). */
const MATCHES_KEPT = VENDOR_SEARCH_SORT_CAP;

/**
 * Keeps which vendors a search matches (SQLite's trigram keys, newest first), per vendor-search
 * version (migration 021: it moves in the same transaction as any vendor added, deleted, or its
 * name, owner, e-mail or slug changed, whichever process commits it). Statuses, revenue and product
 * counts are read on every request, so they are never stale. Reading a full store name's trigram
 * lists costs ~0.55 ms at 50,000 vendors against ~0.16 ms at 5,000 (they grow with the
 * marketplace): paging, sorting or filtering the same search, or several admins on it, read them
 * once.
 */
export class VendorMatchMemo {
  private readonly memo = new VersionedMemo<SearchMatches>("vendor-matches", VENDOR_SEARCH_VERSION, MAX_SEARCHES);

  /** The matches of one request: the version is read once, at the first search asked. */
  at(db: Executor): MatchesOf {
    const matches = this.memo.at(db);
    return (search) => matches(search, () => sqliteMatchKeys(db, search, MATCHES_KEPT));
  }
}
