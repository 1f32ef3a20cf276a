import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

/** How many distinct method + path pairs are remembered (paths with ids make most of them distinct). */
export const MATCH_CACHE_SIZE = 1000;

/**
 * Hono's trie router, remembering its answer per method and path. The API's paths cannot use
 * Hono's faster RegExpRouter (it refuses `/errors/archive` next to `/errors/:id/archive`), and a
 * trie search allocated ~3 KB per request (it collects every middleware and handler on the way):
 * under load that garbage was a fifth of a cached dashboard answer's. A match depends only on the method, the path and the routes, so a remembered one is
 * exact; adding a route forgets them all. Hono only reads a match (handlers, params), so requests
 * can share one. Oldest first out once full.
 */
export class MatchCacheRouter<T> implements Router<T> {
  readonly name = "MatchCacheRouter";
  readonly #trie = new TrieRouter<T>();
  readonly #matches = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.#trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    const known = this.#matches.get(key);
    if (known) return known;
    const found = this.#trie.match(method, path);
    if (this.#matches.size >= MATCH_CACHE_SIZE) this.#matches.delete(this.#matches.keys().next().value!);
    this.#matches.set(key, found);
    return found;
  }
}
