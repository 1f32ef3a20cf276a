import type { TestContext } from "./test-app.ts";

/** What `/metrics` says of one cache's lookups so far (`hki_cache_lookups_total{cache}`); the app needs METRICS_TOKEN. */
export async function cacheLookups(ctx: TestContext, metricsToken: string, cache: string): Promise<{ hit: number; miss: number }> {
  const text = await (await ctx.request("/metrics", { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  const of = (result: string) => Number(new RegExp(`hki_cache_lookups_total\\{cache="${cache}",result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { hit: of("hit"), miss: of("miss") };
}
