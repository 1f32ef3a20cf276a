import { apiErrorMessage, apiFieldErrors } from "@web/lib/api-client";
import { useId, useState, type FormEvent } from "react";
import type { Invitation, SentInvitation, StaffRole } from "@contract/admin-users";
import { useWriteAccess } from "@web/app/current-user";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { Input, inputClasses } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { Spinner } from "@web/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { toast } from "@web/components/ui/toast";
import { formatDateTime } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { useInvitations, useInvite, useResendInvitation, useRevokeInvitation } from "./admin-users-api";
import { ROLE_LABELS } from "./users-tab";

const LINK_UNKNOWN = "The link is shown only when the invitation is sent: use Resend for a new one";

/** Copies text to the clipboard and says so (or says it could not). */
async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: "Link copied", variant: "success" });
  } catch {
    toast({ title: "Could not copy the link: select it and copy it by hand", variant: "destructive" });
  }
}

/**
 * The Invitations tab (docs/product.md §14.5): invite by e-mail and role, then the open invitations
 * with their expiry, resend, revoke and copy link. Only a hash of each link is stored, so a link
 * can be copied only right after it was sent (or sent again) from this page.
 */
export function InvitationsTab() {
  const ready = useLoadDelay();
  const invitations = useInvitations(ready);
  const { reason: readOnly } = useWriteAccess();
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

  const list = invitations.data?.invitations;
  return (
    <div className="grid gap-4">
      <div className="flex justify-end">
        <DisabledReason reason={readOnly}>
          <Button onClick={() => setInviting(true)} disabled={readOnly !== undefined}>
            Invite
          </Button>
        </DisabledReason>
      </div>

      {invitations.isPending ? (
        <Spinner className="py-12" label="Loading invitations" />
      ) : invitations.isError ? (
        <LoadErrorCard title="Error loading invitations" message={apiErrorMessage(invitations.error)} onRetry={() => void invitations.refetch()} retrying={invitations.isFetching} />
      ) : list && list.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-gray-600">No pending invitations</CardContent>
        </Card>
      ) : (
        list && (
          <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white" aria-busy={invitations.isFetching}>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>E-mail</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Invited by</TableHead>
                  <TableHead>Expires</TableHead>
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((invitation) => {
                  const link = links[invitation.id];
                  return (
                    <TableRow key={invitation.id} data-testid={`invitation-row-${invitation.email}`}>
                      <TableCell className="font-medium">{invitation.email}</TableCell>
                      <TableCell>
                        <Badge variant={invitation.role === "admin" ? "default" : "info"}>{ROLE_LABELS[invitation.role]}</Badge>
                      </TableCell>
                      <TableCell>
                        <Badge variant={invitation.status === "pending" ? "success" : "warning"}>{invitation.status === "pending" ? "Pending" : "Expired"}</Badge>
                      </TableCell>
                      <TableCell>{invitation.invitedBy}</TableCell>
                      <TableCell>{formatDateTime(invitation.expiresAt)}</TableCell>
                      <TableCell>
                        <div className="flex flex-wrap justify-end gap-2">
                          <DisabledReason reason={link ? undefined : LINK_UNKNOWN}>
                            <Button size="sm" variant="outline" disabled={!link} onClick={() => link && void copy(link)} aria-label={`Copy the link of ${invitation.email}`}>
                              Copy link
                            </Button>
                          </DisabledReason>
                          <DisabledReason reason={readOnly}>
                            <Button size="sm" variant="outline" disabled={readOnly !== undefined || resend.isPending} onClick={() => onResend(invitation)} aria-label={`Resend the invitation of ${invitation.email}`}>
                              Resend
                            </Button>
                          </DisabledReason>
                          <DisabledReason reason={readOnly}>
                            <Button size="sm" variant="destructive" disabled={readOnly !== undefined || revoke.isPending} onClick={() => setRevoking(invitation)} aria-label={`Revoke the invitation of ${invitation.email}`}>
                              Revoke
                            </Button>
                          </DisabledReason>
                        </div>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </div>
        )
      )}

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

function InviteDialog({ open, onClose, onSent }: { open: boolean; onClose: () => void; onSent: (invitation: SentInvitation) => void }) {
  const emailId = useId();
  const roleId = useId();
  const invite = useInvite();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<StaffRole>("viewer");
  const [errors, setErrors] = useState<Record<string, string>>({});

  const close = () => {
    setEmail("");
    setRole("viewer");
    setErrors({});
    invite.reset();
    onClose();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setErrors({});
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: ({ invitation }) => {
          setEmail("");
          setRole("viewer");
          onSent(invitation);
        },
        onError: (error) => {
          const fields = apiFieldErrors(error);
          if (Object.keys(fields).length > 0) setErrors(fields);
          else setErrors({ form: apiErrorMessage(error) });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite to the admin panel</DialogTitle>
          <DialogDescription>They get an e-mail with a link that works once, for 7 days.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" noValidate onSubmit={onSubmit}>
          <div className="grid gap-1">
            <Label htmlFor={emailId}>E-mail</Label>
            <Input id={emailId} type="email" autoComplete="off" required value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={errors.email ? true : undefined} aria-describedby={errors.email ? `${emailId}-error` : undefined} />
            {errors.email && (
              <p id={`${emailId}-error`} className="text-sm text-red-700">
                {errors.email}
              </p>
            )}
          </div>
          <div className="grid gap-1">
            <Label htmlFor={roleId}>Role</Label>
            <select id={roleId} className={inputClasses} value={role} onChange={(e) => setRole(e.target.value as StaffRole)} aria-invalid={errors.role ? true : undefined} aria-describedby={errors.role ? `${roleId}-error` : undefined}>
              <option value="viewer">Viewer: every screen, read-only</option>
              <option value="admin">Admin: every screen and every action</option>
            </select>
            {errors.role && (
              <p id={`${roleId}-error`} className="text-sm text-red-700">
                {errors.role}
              </p>
            )}
          </div>
          {errors.form && (
            <p role="alert" className="text-sm text-red-700">
              {errors.form}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={invite.isPending || email.trim() === ""}>
              {invite.isPending ? "Sending…" : "Send invitation"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function SentDialog({ invitation, onClose }: { invitation: SentInvitation | null; onClose: () => void }) {
  const linkId = useId();
  return (
    <Dialog open={invitation !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invitation sent</DialogTitle>
          <DialogDescription>
            {invitation ? `${invitation.email} is invited as ${invitation.role === "admin" ? "an admin" : "a viewer"}. An e-mail with the link is on its way.` : ""}
          </DialogDescription>
        </DialogHeader>
        {invitation?.link ? (
          <div className="grid gap-2">
            <Label htmlFor={linkId}>Invitation link</Label>
            <div className="flex gap-2">
              <Input id={linkId} readOnly value={invitation.link} onFocus={(e) => e.currentTarget.select()} />
              <Button variant="outline" onClick={() => void copy(invitation.link!)}>
                Copy link
              </Button>
            </div>
            <p className="text-sm text-gray-600">
              The link works once, until {formatDateTime(invitation.expiresAt)}. It is shown only now: use Resend for a new one.
            </p>
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
