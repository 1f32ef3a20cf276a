import { HttpError } from "../../platform/http/http-error.ts";

/**
 * Invitations through Clerk's Backend API (AUTH_PROVIDER=clerk): Clerk sends the e-mail and hosts
 * the sign-up; the invited role travels in the invitation's public metadata, which Clerk copies to
 * the user it creates, so the admin rule reads it like any role. Docs: Clerk Backend API,
 * "Invitations" (POST /v1/invitations, POST /v1/invitations/{id}/revoke).
 */
export interface ClerkInvitationsOptions {
  secretKey: string;
  apiUrl: string;
  fetchImpl?: typeof fetch;
}

export interface ClerkInvitation {
  id: string;
  /** The invitation link, when Clerk gives one. */
  url: string | null;
}

const REQUEST_TIMEOUT_MS = 5000;

interface ClerkErrorBody {
  errors?: Array<{ code?: string; message?: string; long_message?: string }>;
}

export class ClerkInvitations {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ClerkInvitationsOptions) {
    this.fetchImpl = options.fetchImpl ?? fetch;
  }

  async create(input: { email: string; role: string; redirectUrl: string; expiresInDays: number }): Promise<ClerkInvitation> {
    const res = await this.call("POST", "/v1/invitations", {
      email_address: input.email,
      public_metadata: { role: input.role },
      redirect_url: input.redirectUrl,
      notify: true,
      // A pending invitation at Clerk for the same address is replaced, as ours is.
      ignore_existing: true,
      expires_in_days: input.expiresInDays,
    });
    const body = (await res.json()) as { id?: unknown; url?: unknown };
    if (typeof body.id !== "string") throw new HttpError(502, "provider_error", "Clerk answered the invitation without an id");
    return { id: body.id, url: typeof body.url === "string" ? body.url : null };
  }

  /** Revokes at Clerk; an invitation Clerk no longer has (or already revoked or accepted) is not an error. */
  async revoke(invitationId: string): Promise<void> {
    await this.call("POST", `/v1/invitations/${encodeURIComponent(invitationId)}/revoke`, undefined, [400, 404, 422]);
  }

  private async call(method: string, path: string, body?: unknown, allowedStatuses: number[] = []): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.options.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.options.secretKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new HttpError(502, "provider_error", `Clerk could not be reached: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (res.ok || allowedStatuses.includes(res.status)) return res;
    const detail = ((await res.json().catch(() => ({}))) as ClerkErrorBody).errors?.[0];
    const reason = detail?.long_message ?? detail?.message ?? `HTTP ${res.status}`;
    // 4xx: Clerk refused what we asked (e.g. the address already has an account there): a conflict to show.
    if (res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 403) throw new HttpError(409, "conflict", `Clerk refused the invitation: ${reason}`);
    throw new HttpError(502, "provider_error", `Clerk answered ${res.status}: ${reason}`);
  }
}
