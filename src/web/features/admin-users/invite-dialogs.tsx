import { apiErrorMessage, apiFieldErrors } from "@web/lib/api-client";
import { useId, useState, type FormEvent } from "react";
import { STAFF_ROLE_DESCRIPTIONS, STAFF_ROLES, type StaffRole } from "@contract/access";
import type { SentInvitation } from "@contract/admin-users";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { FieldError, invalidProps } from "@web/components/ui/field-error";
import { FormDialogFooter } from "@web/components/ui/form-dialog-footer";
import { Input, inputClasses } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { toast } from "@web/components/ui/toast";
import { formatDateTime } from "@web/lib/format";
import { ROLE_LABELS } from "@web/lib/labels";
import { useInvite } from "./admin-users-api";

/** Copies an invitation link to the clipboard and says so (or says it could not). */
export async function copyLink(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: "Link copied", variant: "success" });
  } catch {
    toast({ title: "Could not copy the link: select it and copy it by hand", variant: "destructive" });
  }
}

/** 'Invite to the admin panel': e-mail and role; a field the server refuses shows its message (docs/product.md §14.5). */
export function InviteDialog({ open, onClose, onSent }: { open: boolean; onClose: () => void; onSent: (invitation: SentInvitation) => void }) {
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
            <Input id={emailId} type="email" autoComplete="off" required value={email} onChange={(e) => setEmail(e.target.value)} {...invalidProps(emailId, errors.email)} />
            <FieldError id={emailId} error={errors.email} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={roleId}>Role</Label>
            <select id={roleId} className={inputClasses} value={role} onChange={(e) => setRole(e.target.value as StaffRole)} {...invalidProps(roleId, errors.role)}>
              {STAFF_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}: {STAFF_ROLE_DESCRIPTIONS[r]}
                </option>
              ))}
            </select>
            <FieldError id={roleId} error={errors.role} />
          </div>
          <FormDialogFooter error={errors.form} onCancel={close}>
            <Button type="submit" disabled={invite.isPending || email.trim() === ""}>
              {invite.isPending ? "Sending…" : "Send invitation"}
            </Button>
          </FormDialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** 'Invitation sent' with the link, shown only now (only a hash of it is stored). */
export function SentDialog({ invitation, onClose }: { invitation: SentInvitation | null; onClose: () => void }) {
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
              <Button variant="outline" onClick={() => void copyLink(invitation.link!)}>
                Copy link
              </Button>
            </div>
            <p className="text-sm text-gray-600">The link works once, until {formatDateTime(invitation.expiresAt)}. It is shown only now: use Resend for a new one.</p>
          </div>
        ) : null}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
