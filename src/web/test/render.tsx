import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, type RenderResult } from "@testing-library/react";
import type { ReactElement } from "react";
import { vi } from "vitest";
import { createQueryClient } from "@web/lib/query-client";

/**
 * Renders with a fresh QueryClient made as the app makes it (so a mutation refreshes the areas its
 * definition names), but with no retries and no stale time, so failures and refetches show at once.
 */
export function renderWithQuery(ui: ReactElement): RenderResult & { queryClient: QueryClient } {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const result = render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
  return { ...result, queryClient };
}

type Handler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/** Replaces fetch with a handler; the returned mock records the calls. */
export function mockFetch(handler: Handler) {
  const fn = vi.fn<typeof fetch>(async (input, init) => handler(String(input), init));
  vi.stubGlobal("fetch", fn);
  return fn;
}

export const json = (body: unknown, status = 200, statusText = "OK") => new Response(JSON.stringify(body), { status, statusText, headers: { "Content-Type": "application/json" } });
