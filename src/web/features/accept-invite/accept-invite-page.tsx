import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { AcceptInviteForm } from "./accept-invite-form";
import { useInvitation } from "./use-invitation";

export { INVALID_LINK } from "./use-invitation";

/**
 * The accept page (docs/product.md §14.3), outside the beta gate and the admin layout: an
 * invitation link is the invitee's way in, so a valid one stands in for the beta password. The
 * invitee chooses a name and password and is signed in with the invited role; an expired, used or
 * revoked link gets the server's reason and changes nothing.
 */
export default function AcceptInvitePage({
  token = new URLSearchParams(window.location.search).get("token") ?? "",
  onAccepted = () => window.location.replace("/"),
}: {
  token?: string;
  onAccepted?: () => void;
}) {
  const [state, markUnusable] = useInvitation(token);
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-xl font-semibold leading-none tracking-tight">Join HKI Global Admin</h1>
          {state.kind === "ready" && (
            <CardDescription>
              {state.invitation.email} is invited as {state.invitation.role === "admin" ? "an admin (every screen and every action)" : "a viewer (every screen, read-only)"}. Choose your name and a
              password to accept.
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {state.kind === "checking" ? (
            <Spinner label="Checking the invitation" />
          ) : state.kind === "unusable" ? (
            <div className="grid gap-4">
              <p role="alert" className="text-sm text-red-700">
                {state.message}
              </p>
              <a href="/" className="text-sm text-blue-700 hover:underline">
                Go to the admin panel
              </a>
            </div>
          ) : (
            <AcceptInviteForm token={token} onAccepted={onAccepted} onUnusable={markUnusable} />
          )}
        </CardContent>
      </Card>
    </main>
  );
}
