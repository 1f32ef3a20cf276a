import { useEffect, useId, useState } from "react";
import { STAFF_ROLE_DESCRIPTIONS, STAFF_ROLES, type StaffRole } from "@contract/access";
import type { AdminUser } from "@contract/admin-users";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { inputClasses } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { ROLE_LABELS } from "@web/lib/labels";

/** 'Change role': every panel role offered, each with what it may do (docs/product.md "Roles"); confirming asks the server. */
export function RoleChangeDialog({ user, onCancel, onConfirm }: { user: AdminUser | null; onCancel: () => void; onConfirm: (role: StaffRole) => void }) {
  const roleId = useId();
  const [role, setRole] = useState<StaffRole>(user?.role ?? "viewer");
  useEffect(() => {
    if (user) setRole(user.role);
  }, [user]);
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onCancel()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change role</DialogTitle>
          <DialogDescription>{user ? `What ${user.email} may do in the panel. Their open sessions keep going with the new role at once.` : ""}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-1">
          <Label htmlFor={roleId}>Role</Label>
          <select id={roleId} className={inputClasses} value={role} onChange={(e) => setRole(e.target.value as StaffRole)}>
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}: {STAFF_ROLE_DESCRIPTIONS[r]}
              </option>
            ))}
          </select>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button disabled={user === null || role === user.role} onClick={() => onConfirm(role)}>
            Change role
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
