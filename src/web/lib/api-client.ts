import type { ZodType } from "zod";
import { STEP_UP_REQUIRED } from "@contract/access";
import { askForStepUp } from "./step-up";
import type { ApiArea } from "@contract/areas";
import { type EndpointDefinition, type EndpointInput, type EndpointResult, endpointUrl } from "@contract/endpoint";
import { getAuthToken } from "./session";

/**
 * The one API client (docs/product.md §2.5): JSON content type, the bearer token when
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

export async function apiRequest<T>(method: Method, path: string, body?: unknown, options: RequestOptions<T> = {}): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...options.headers };
  const token = await getAuthToken();
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

let checkingAnswers = false;

/**
 * Tests turn this on (src/web/test/setup.ts): every answer is then parsed with its definition's
 * schema, so a screen built on a shape the server does not give fails its test. The production
 * bundle never parses: its contract carries no zod (scripts/vite-inert-zod.ts).
 */
export function checkAnswersAgainstContract(on: boolean): void {
  checkingAnswers = on;
}

/**
 * The one way the web calls the API: the endpoint's definition gives the method and the path
 * (parameters filled in), the input its query and body, and the answer its type.
 */
export async function callApi<D extends EndpointDefinition>(definition: D, input: EndpointInput<D>, options: { signal?: AbortSignal } = {}): Promise<EndpointResult<D>> {
  const url = endpointUrl(definition, input as { params?: Record<string, string>; query?: Record<string, string | number | boolean | undefined> });
  const method = definition.method.toUpperCase() as Method;
  const schema = checkingAnswers ? definition.success?.schema : undefined;
  const send = () => apiRequest<EndpointResult<D>>(method, url, input.body, { signal: options.signal, ...(schema ? { schema: schema as ZodType<EndpointResult<D>> } : {}) });
  if (!definition.stepUp) return send();
  try {
    return await send();
  } catch (error) {
    // A dangerous action without a recent second-factor check: ask for one, then send it once more.
    if (apiErrorCode(error) !== STEP_UP_REQUIRED || !(await askForStepUp())) throw error;
    return send();
  }
}

/** The error code of a failed call (`error.code`), when the answer has the error shape. */
export function apiErrorCode(error: unknown): string | undefined {
  const code = apiErrorBody(error)?.code;
  return typeof code === "string" ? code : undefined;
}

/** What a mutation of `definition` declares it changes; the query client refreshes exactly those areas. */
export interface MutationMeta extends Record<string, unknown> {
  invalidates: readonly ApiArea[];
}

/** Options every mutation hook spreads in: the areas its endpoint's definition says it changes. */
export function mutationOf(definition: EndpointDefinition): { meta: MutationMeta } {
  return { meta: { invalidates: definition.invalidates ?? [] } };
}

/** The parsed error shape of a failed call (`{ error: { code, message, fields? } }`), when there is one. */
function apiErrorBody(error: unknown): { code?: unknown; message?: unknown; fields?: unknown } | undefined {
  if (!(error instanceof ApiRequestError)) return undefined;
  try {
    return (JSON.parse(error.body) as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | null)?.error;
  } catch {
    return undefined; // not JSON (a proxy's page, an empty body)
  }
}

/** The server's own words for a failure (its error.message), else the error's text, else 'Unknown error'. */
export function apiErrorMessage(error: unknown): string {
  const message = apiErrorBody(error)?.message;
  if (typeof message === "string" && message) return message;
  return error instanceof Error && error.message ? error.message : "Unknown error";
}

/** Each invalid input of a 400 with its message (the answer's error.fields), or {}. */
export function apiFieldErrors(error: unknown): Record<string, string> {
  if (errorStatus(error) !== 400) return {};
  const fields = apiErrorBody(error)?.fields;
  if (typeof fields !== "object" || fields === null) return {};
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** The HTTP status of a failed call, when the failure came from the API. */
export function errorStatus(error: unknown): number | undefined {
  return error instanceof ApiRequestError ? error.status : undefined;
}
