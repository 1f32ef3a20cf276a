import type { ZodType } from "zod";
import { getSessionToken } from "./session";

/**
 * The one API client (DESIGN.md "Web rules", spec §7): JSON content type, the bearer token when
 * there is one, and any non-success answer raised as `API Error: {statusText} - {body}`.
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`API Error: ${statusText} - ${body}`);
    this.name = "ApiRequestError";
    this.status = status;
    this.statusText = statusText;
    this.body = body;
  }
}

export interface RequestOptions<T> {
  /** Parses (and so validates) the answer; without it the JSON is trusted as T. */
  schema?: ZodType<T>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export async function apiRequest<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: RequestOptions<T> = {},
): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...options.headers };
  const token = getSessionToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
  });

  if (!res.ok) {
    const bodyText = await res.text().catch(() => "");
    throw new ApiRequestError(res.status, res.statusText, bodyText);
  }

  // 204 and empty bodies have nothing to parse.
  const text = await res.text();
  const data: unknown = text.length > 0 ? JSON.parse(text) : undefined;
  return options.schema ? options.schema.parse(data) : (data as T);
}

export const apiGet = <T>(path: string, options?: RequestOptions<T>) => apiRequest<T>("GET", path, undefined, options);
export const apiPost = <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
  apiRequest<T>("POST", path, body, options);
export const apiPut = <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
  apiRequest<T>("PUT", path, body, options);
export const apiPatch = <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
  apiRequest<T>("PATCH", path, body, options);
export const apiDelete = <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
  apiRequest<T>("DELETE", path, body, options);

/** The HTTP status of a failed call, when the failure came from the API. */
export function errorStatus(error: unknown): number | undefined {
  return error instanceof ApiRequestError ? error.status : undefined;
}
