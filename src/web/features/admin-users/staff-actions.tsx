import type { AdminUser, StaffRole } from "@contract/admin-users";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf } from "@web/lib/format";
import { RoleChangeDialog } from "./role-change-dialog";
import { useChangeRole, useRemoveAccess, useResetTwoStep, useSignOutEverywhere } from "./admin-users-api";

/** An action on a staff member waiting for its confirmation. */
export type PendingAction =
  { kind: "role"; user: AdminUser; role: StaffRole } | { kind: "remove"; user: AdminUser } | { kind: "sign-out"; user: AdminUser } | { kind: "reset-two-step"; user: AdminUser };

const ROLE_PHRASES: Record<StaffRole, string> = { admin: "an admin", finance: "finance", support: "support", viewer: "a viewer" };

/** Runs a confirmed action, telling how it went in a toast (the server's reason when it refuses). */
export function useStaffActions() {
  const changeRole = useChangeRole();
  const removeAccess = useRemoveAccess();
  const signOut = useSignOutEverywhere();
  const resetTwoStep = useResetTwoStep();
  const run = (action: PendingAction) => {
    const { user } = action;
    if (action.kind === "role") {
      changeRole.mutate(
        { id: user.id, role: action.role },
        {
          onSuccess: () => toast({ title: `${user.email} is now ${ROLE_PHRASES[action.role]}`, variant: "success" }),
          onError: (error) => toast({ title: `Failed to change the role: ${apiErrorMessage(error)}`, variant: "destructive" }),
        },
      );
    } else if (action.kind === "remove") {
      removeAccess.mutate(user.id, {
        onSuccess: (result) => toast({ title: `Access removed for ${user.email}`, description: `${countOf(result.sessionsRevoked, "open session")} signed out.`, variant: "success" }),
        onError: (error) => toast({ title: `Failed to remove access: ${apiErrorMessage(error)}`, variant: "destructive" }),
      });
    } else if (action.kind === "reset-two-step") {
      resetTwoStep.mutate(user.id, {
        onSuccess: (result) => toast({ title: `Two-step sign-in reset for ${user.email}`, description: `${countOf(result.sessionsEnded, "session")} ended.`, variant: "success" }),
        onError: (error) => toast({ title: `Failed to reset two-step sign-in: ${apiErrorMessage(error)}`, variant: "destructive" }),
      });
    } else {
      signOut.mutate(user.id, {
        onSuccess: (result) => toast({ title: `Signed ${user.email} out everywhere`, description: `${countOf(result.revoked, "session")} ended.`, variant: "success" }),
        onError: (error) => toast({ title: `Failed to sign out: ${apiErrorMessage(error)}`, variant: "destructive" }),
      });
    }
  };
  return { run, busy: changeRole.isPending || removeAccess.isPending || signOut.isPending || resetTwoStep.isPending };
}

function describe(action: Exclude<PendingAction, { kind: "role" }>): { title: string; confirm: string; text: string } {
  const { email } = action.user;
  if (action.kind === "remove") {
    return {
      title: "Remove access",
      confirm: "Remove access",
      text: `${email} loses access to the admin panel at once: their role goes back to user and every open session is signed out. Their account is kept.`,
    };
  }
  if (action.kind === "reset-two-step") {
    return {
      title: "Reset two-step sign-in",
      confirm: "Reset two-step sign-in",
      text: `Two-step sign-in of ${email} is turned off and their recovery codes stop working; every session of theirs ends now. They sign in next with their password alone and can set up an authenticator app again from their user menu.`,
    };
  }
  return {
    title: "Sign out everywhere",
    confirm: "Sign out everywhere",
    text: `Every session of ${email} ends now (${action.user.activeSessions} open). They can sign in again with their password.`,
  };
}

/** Asks before an action on a staff member, saying what will happen (docs/product.md §14.5); a role change asks which role. */
export function StaffActionDialog({ pending, onCancel, onConfirm }: { pending: PendingAction | null; onCancel: () => void; onConfirm: (action: PendingAction) => void }) {
  if (pending?.kind === "role") return <RoleChangeDialog user={pending.user} onCancel={onCancel} onConfirm={(role) => onConfirm({ ...pending, role })} />;
  const words = pending ? describe(pending) : { title: "Sign out everywhere", confirm: "Sign out everywhere", text: "" };
  return (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(open) => !open && onCancel()}
      title={words.title}
      confirmLabel={words.confirm}
      confirmVariant={pending?.kind === "remove" ? "destructive" : "default"}
      onConfirm={() => pending && onConfirm(pending)}
      description={words.text}
    />
  );
}
