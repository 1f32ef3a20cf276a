import type { AdminUser } from "@contract/admin-users";
import { ListState } from "@web/components/list";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";
import { useUserSessions } from "./admin-users-api";

/** 'Open sessions' of a staff member, '(this session)' for one's own (docs/product.md §14.5). */
export function SessionsDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const sessions = useUserSessions(user?.id ?? null);
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Open sessions</DialogTitle>
          <DialogDescription>{user?.email}</DialogDescription>
        </DialogHeader>
        <ListState
          inline
          query={sessions}
          isEmpty={(data) => data.sessions.length === 0}
          loadingLabel="Loading sessions"
          errorTitle="Failed to load sessions"
          errorMessage={apiErrorMessage}
          emptyText="No open sessions."
        >
          {(data) => (
            <ul className="grid gap-2 text-sm">
              {data.sessions.map((s) => (
                <li key={s.id} className="flex justify-between gap-4 rounded border border-gray-200 px-3 py-2">
                  <span>
                    Signed in {formatDateTime(s.createdAt)}
                    {s.current && <span className="ml-2 font-medium">(this session)</span>}
                  </span>
                  <span className="text-gray-600">until {formatDateTime(s.expiresAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </DialogContent>
    </Dialog>
  );
}
