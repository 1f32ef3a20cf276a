import { type AdminUser, changeUserRoleEndpoint, removeUserAccessEndpoint, revokeUserSessionsEndpoint } from "@contract/admin-users";
import { resetUserTwoStepEndpoint } from "@contract/auth";
import type { Column } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { WriteButton } from "@web/components/ui/write-button";
import { formatDateTime } from "@web/lib/format";
import { ROLE_BADGE, ROLE_LABELS } from "@web/lib/labels";
import type { PendingAction } from "./staff-actions";

interface StaffColumnsOptions {
  meId: string | undefined;
  /** An action is running: the others wait. */
  busy: boolean;
  onAction: (action: PendingAction) => void;
  onSessions: (user: AdminUser) => void;
}

/** Why a role action on `user` is refused even to an admin, or undefined when it is offered (a role's refusal is WriteButton's). */
function refusal(user: AdminUser, meId: string | undefined): string | undefined {
  if (user.id === meId) return "You cannot change your own access: ask another administrator";
  if (user.access === "domain") return "An admin by company e-mail domain: a role cannot change that";
  return undefined;
}

function StaffActions({ user, meId, busy, onAction }: { user: AdminUser } & Omit<StaffColumnsOptions, "onSessions">) {
  const refused = refusal(user, meId);
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <WriteButton
        endpoint={changeUserRoleEndpoint}
        size="sm"
        variant="outline"
        refusal={refused}
        disabled={busy}
        onClick={() => onAction({ kind: "role", user, role: user.role })}
        aria-label={`Change the role of ${user.email}`}
      >
        Change role
      </WriteButton>
      <WriteButton
        endpoint={removeUserAccessEndpoint}
        size="sm"
        variant="destructive"
        refusal={refused}
        disabled={busy}
        onClick={() => onAction({ kind: "remove", user })}
        aria-label={`Remove access of ${user.email}`}
      >
        Remove access
      </WriteButton>
      <WriteButton
        endpoint={revokeUserSessionsEndpoint}
        size="sm"
        variant="outline"
        disabled={busy || user.activeSessions === 0}
        onClick={() => onAction({ kind: "sign-out", user })}
        aria-label={`Sign ${user.email} out everywhere`}
      >
        Sign out everywhere
      </WriteButton>
      {user.twoStep ? (
        <WriteButton
          endpoint={resetUserTwoStepEndpoint}
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => onAction({ kind: "reset-two-step", user })}
          aria-label={`Reset two-step sign-in of ${user.email}`}
        >
          Reset two-step sign-in
        </WriteButton>
      ) : null}
    </div>
  );
}

/** The staff table's columns (docs/product.md §14.5); on one's own row and on domain admins the role actions are disabled with the reason. */
export function staffColumns(options: StaffColumnsOptions): Array<Column<AdminUser>> {
  const { meId, onSessions } = options;
  return [
    {
      id: "user",
      header: "User",
      sortKey: "name",
      cell: (u) => (
        <>
          <div className="font-medium">
            {u.name ?? u.email}
            {u.id === meId && <span className="ml-1 text-gray-500">(you)</span>}
          </div>
          {u.name && <div className="text-xs text-gray-600">{u.email}</div>}
        </>
      ),
    },
    { id: "role", header: "Role", cell: (u) => <Badge variant={ROLE_BADGE[u.role]}>{ROLE_LABELS[u.role]}</Badge> },
    { id: "access", header: "Access", cell: (u) => (u.access === "domain" ? "By company domain" : "By role") },
    { id: "last-sign-in", header: "Last sign-in", sortKey: "lastSignIn", cell: (u) => (u.lastSignInAt ? formatDateTime(u.lastSignInAt) : "Never") },
    {
      id: "sessions",
      header: "Sessions",
      cell: (u) => (
        <Button variant="link" size="sm" className="px-0" onClick={() => onSessions(u)} aria-label={`Open sessions of ${u.email}: ${u.activeSessions}`}>
          {u.activeSessions}
        </Button>
      ),
    },
    { id: "actions", header: "Actions", hideHeader: true, cell: (u) => <StaffActions user={u} {...options} /> },
  ];
}
