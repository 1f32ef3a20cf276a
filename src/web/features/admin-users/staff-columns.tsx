import type { AdminUser, StaffRole } from "@contract/admin-users";
import type { Column } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { formatDateTime } from "@web/lib/format";
import { ROLE_BADGE, ROLE_LABELS } from "@web/lib/labels";
import type { PendingAction } from "./staff-actions";

interface StaffColumnsOptions {
  meId: string | undefined;
  /** Why nothing can be changed (a viewer's session), if so. */
  readOnly: string | undefined;
  /** An action is running: the others wait. */
  busy: boolean;
  onAction: (action: PendingAction) => void;
  onSessions: (user: AdminUser) => void;
}

/** Why an action on `user` is not offered to the signed-in user, or undefined when it is. */
function refusal(user: AdminUser, meId: string | undefined, readOnly: string | undefined): string | undefined {
  if (readOnly) return readOnly;
  if (user.id === meId) return "You cannot change your own access: ask another administrator";
  if (user.access === "domain") return "An admin by company e-mail domain: a role cannot change that";
  return undefined;
}

function StaffActions({ user, meId, readOnly, busy, onAction }: { user: AdminUser } & Omit<StaffColumnsOptions, "onSessions">) {
  const refused = refusal(user, meId, readOnly);
  const otherRole: StaffRole = user.role === "admin" ? "viewer" : "admin";
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <DisabledReason reason={refused}>
        <Button
          size="sm"
          variant="outline"
          disabled={refused !== undefined || busy}
          onClick={() => onAction({ kind: "role", user, role: otherRole })}
          aria-label={`Make ${user.email} ${otherRole === "admin" ? "an admin" : "a viewer"}`}
        >
          {otherRole === "admin" ? "Make admin" : "Make viewer"}
        </Button>
      </DisabledReason>
      <DisabledReason reason={refused}>
        <Button size="sm" variant="destructive" disabled={refused !== undefined || busy} onClick={() => onAction({ kind: "remove", user })} aria-label={`Remove access of ${user.email}`}>
          Remove access
        </Button>
      </DisabledReason>
      <DisabledReason reason={readOnly}>
        <Button
          size="sm"
          variant="outline"
          disabled={readOnly !== undefined || busy || user.activeSessions === 0}
          onClick={() => onAction({ kind: "sign-out", user })}
          aria-label={`Sign ${user.email} out everywhere`}
        >
          Sign out everywhere
        </Button>
      </DisabledReason>
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
