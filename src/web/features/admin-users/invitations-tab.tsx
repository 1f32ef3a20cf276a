import { apiErrorMessage } from "@web/lib/api-client";
import { useState } from "react";
import { type Invitation, inviteAdminUserEndpoint, resendInvitationEndpoint, revokeInvitationEndpoint, type SentInvitation } from "@contract/admin-users";
import { type Column, ListTable } from "@web/components/list";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { toast } from "@web/components/ui/toast";
import { WriteButton } from "@web/components/ui/write-button";
import { formatDateTime } from "@web/lib/format";
import { ROLE_BADGE, ROLE_LABELS } from "@web/lib/labels";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { useInvitations, useResendInvitation, useRevokeInvitation } from "./admin-users-api";
import { copyLink, InviteDialog, SentDialog } from "./invite-dialogs";

const LINK_UNKNOWN = "The link is shown only when the invitation is sent: use Resend for a new one";

/**
 * The Invitations tab (docs/product.md §14.5): invite by e-mail and role, then the open invitations
 * with their expiry, resend, revoke and copy link. Only a hash of each link is stored, so a link
 * can be copied only right after it was sent (or sent again) from this page.
 */
export function InvitationsTab() {
  const ready = useLoadDelay();
  const invitations = useInvitations(ready);
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [inviting, setInviting] = useState(false);
  const [sent, setSent] = useState<SentInvitation | null>(null);
  const [links, setLinks] = useState<Record<string, string>>({});
  const [revoking, setRevoking] = useState<Invitation | null>(null);

  const remember = (invitation: SentInvitation) => {
    const { link } = invitation;
    if (link) setLinks((l) => ({ ...l, [invitation.id]: link }));
  };

  const onResend = (invitation: Invitation) =>
    resend.mutate(invitation.id, {
      onSuccess: ({ invitation: again }) => {
        remember(again);
        toast({ title: `Invitation sent again to ${again.email}`, description: `The new link works until ${formatDateTime(again.expiresAt)}; the old one no longer works.`, variant: "success" });
      },
      onError: (error) => toast({ title: `Failed to resend the invitation: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });

  const onRevoke = () => {
    const invitation = revoking;
    setRevoking(null);
    if (!invitation) return;
    revoke.mutate(invitation.id, {
      onSuccess: () => toast({ title: `Invitation of ${invitation.email} revoked`, variant: "success" }),
      onError: (error) => toast({ title: `Failed to revoke the invitation: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  const columns: Array<Column<Invitation>> = [
    { id: "email", header: "E-mail", className: "font-medium", cell: (i) => i.email },
    { id: "role", header: "Role", cell: (i) => <Badge variant={ROLE_BADGE[i.role]}>{ROLE_LABELS[i.role]}</Badge> },
    { id: "status", header: "Status", cell: (i) => <Badge variant={i.status === "pending" ? "success" : "warning"}>{i.status === "pending" ? "Pending" : "Expired"}</Badge> },
    { id: "invited-by", header: "Invited by", cell: (i) => i.invitedBy },
    { id: "expires", header: "Expires", cell: (i) => formatDateTime(i.expiresAt) },
    {
      id: "actions",
      header: "Actions",
      hideHeader: true,
      cell: (invitation) => {
        const link = links[invitation.id];
        return (
          <div className="flex flex-wrap justify-end gap-2">
            <DisabledReason reason={link ? undefined : LINK_UNKNOWN}>
              <Button size="sm" variant="outline" disabled={!link} onClick={() => link && void copyLink(link)} aria-label={`Copy the link of ${invitation.email}`}>
                Copy link
              </Button>
            </DisabledReason>
            <WriteButton
              endpoint={resendInvitationEndpoint}
              size="sm"
              variant="outline"
              disabled={resend.isPending}
              onClick={() => onResend(invitation)}
              aria-label={`Resend the invitation of ${invitation.email}`}
            >
              Resend
            </WriteButton>
            <WriteButton
              endpoint={revokeInvitationEndpoint}
              size="sm"
              variant="destructive"
              disabled={revoke.isPending}
              onClick={() => setRevoking(invitation)}
              aria-label={`Revoke the invitation of ${invitation.email}`}
            >
              Revoke
            </WriteButton>
          </div>
        );
      },
    },
  ];

  return (
    <div className="grid gap-4">
      <div className="flex justify-end">
        <WriteButton endpoint={inviteAdminUserEndpoint} onClick={() => setInviting(true)}>
          Invite
        </WriteButton>
      </div>

      <ListTable
        query={invitations}
        rowsOf={(data) => data.invitations}
        loadingLabel="Loading invitations"
        errorTitle="Error loading invitations"
        errorMessage={apiErrorMessage}
        emptyText="No pending invitations"
        framed
        columns={columns}
        rowKey={(i) => i.id}
        rowProps={(i) => ({ "data-testid": `invitation-row-${i.email}` })}
      />

      <InviteDialog
        open={inviting}
        onClose={() => setInviting(false)}
        onSent={(invitation) => {
          setInviting(false);
          remember(invitation);
          setSent(invitation);
        }}
      />
      <SentDialog invitation={sent} onClose={() => setSent(null)} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke invitation"
        confirmLabel="Revoke"
        confirmVariant="destructive"
        onConfirm={onRevoke}
        description={revoking ? `The link sent to ${revoking.email} stops working at once. You can invite them again later.` : ""}
      />
    </div>
  );
}
