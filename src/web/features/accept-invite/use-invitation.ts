import { useEffect, useState } from "react";
import { type InvitationCheckResponse, checkInvitationEndpoint } from "@contract/admin-users";
import { ApiRequestError, callApi } from "@web/lib/api-client";

export const INVALID_LINK = "This invitation link is not valid. Check that you copied the whole link, or ask for a new invitation.";

/** The server's message and field errors of a failed call (its error shape), if any. */
export function failureOf(error: unknown): { message: string; fields: Record<string, string> } {
  if (error instanceof ApiRequestError) {
    try {
      const body = JSON.parse(error.body) as { error?: { message?: string; fields?: Record<string, string> } };
      if (body.error?.message) return { message: body.error.message, fields: body.error.fields ?? {} };
    } catch {
      // not the error shape
    }
  }
  return { message: "Something went wrong. Please try again.", fields: {} };
}

export type InvitationState = { kind: "checking" } | { kind: "unusable"; message: string } | { kind: "ready"; invitation: InvitationCheckResponse["invitation"] };

/** Checks the link's token once: ready with the invitation, or unusable with the server's reason. */
export function useInvitation(token: string): [InvitationState, (message: string) => void] {
  const [state, setState] = useState<InvitationState>({ kind: "checking" });
  useEffect(() => {
    if (!token) {
      setState({ kind: "unusable", message: INVALID_LINK });
      return;
    }
    let live = true;
    callApi(checkInvitationEndpoint, { body: { token } }).then(
      (answer) => live && setState({ kind: "ready", invitation: answer.invitation }),
      (error: unknown) => live && setState({ kind: "unusable", message: failureOf(error).message }),
    );
    return () => {
      live = false;
    };
  }, [token]);
  return [state, (message) => setState({ kind: "unusable", message })];
}
