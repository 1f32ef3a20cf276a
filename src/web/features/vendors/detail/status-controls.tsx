import { useState } from "react";
import { setVendorStatusEndpoint, type VendorDetail } from "@contract/vendors";
import { useEndpointAccess } from "@web/app/current-user";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Button } from "@web/components/ui/button";
import { TitledCard } from "@web/components/ui/card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { toast } from "@web/components/ui/toast";
import { errorMessage, useSetVendorStatus } from "../vendors-api";
import { StatusReasonField, useStatusReason } from "../vendor-dialogs";

/**
 * Suspends or reactivates the vendor (docs/product.md §4.5: isActive true when the new status is
 * active); a role that may not change it sees the buttons disabled, with the reason (docs/product.md "Roles").
 */
export function useStatusChange(vendorId: string) {
  const setStatus = useSetVendorStatus();
  const { allowed: canWrite, reason } = useEndpointAccess(setVendorStatusEndpoint);
  const change = (nextStatus: "active" | "suspended", reason?: string) => {
    const isActive = nextStatus === "active";
    setStatus.mutate(
      { id: vendorId, isActive, ...(reason ? { reason } : {}) },
      {
        onSuccess: () => toast({ title: isActive ? "Vendor reactivated" : "Vendor suspended", variant: "success" }),
        onError: (error) => toast({ title: `Failed to ${isActive ? "enable" : "disable"} vendor: ${errorMessage(error)}`, variant: "destructive" }),
      },
    );
  };
  return { change, disabled: setStatus.isPending || !canWrite, readOnly: reason };
}

/** One status change shared by the banner and the Settings tab (either disables both while it runs). */
export type StatusChange = ReturnType<typeof useStatusChange>;

/** The banner of a suspended vendor, with 'Reactivate Vendor' (docs/product.md §4.4). */
export function SuspendedBanner({ vendor, status }: { vendor: VendorDetail; status: StatusChange }) {
  if (vendor.status !== "suspended") return null;
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-yellow-300 bg-yellow-50 p-4 text-yellow-900">
      <span>
        This vendor is suspended: the store is hidden and the vendor cannot use their dashboard.
        {vendor.statusReason && <span className="mt-1 block text-sm">Reason: {vendor.statusReason}</span>}
      </span>
      <DisabledReason reason={status.readOnly}>
        <Button onClick={() => status.change("active")} disabled={status.disabled}>
          Reactivate Vendor
        </Button>
      </DisabledReason>
    </div>
  );
}

/** The Settings tab: card 'Vendor status' with 'Suspend Vendor' or 'Activate Vendor' (docs/product.md §4.4). */
export function SettingsTab({ vendor, status }: { vendor: VendorDetail; status: StatusChange }) {
  const suspended = vendor.status === "suspended";
  const [confirming, setConfirming] = useState(false);
  const reason = useStatusReason();
  const close = () => {
    setConfirming(false);
    reason.clear();
  };
  return (
    <TitledCard title="Vendor status" contentClassName="grid gap-3">
      <p className="text-gray-600">
        {suspended
          ? "The vendor is suspended. Activating makes the store visible again and restores dashboard access."
          : "Suspending hides the store from public listings and blocks dashboard access; all data is kept."}
      </p>
      <div>
        <DisabledReason reason={status.readOnly}>
          {suspended ? (
            <Button onClick={() => status.change("active")} disabled={status.disabled}>
              Activate Vendor
            </Button>
          ) : (
            <Button variant="destructive" onClick={() => setConfirming(true)} disabled={status.disabled}>
              Suspend Vendor
            </Button>
          )}
        </DisabledReason>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !open && close()}
        title="Suspend Vendor"
        description={`Suspend ${vendor.name}? The store is hidden from public listings and the vendor cannot use their dashboard; all data is kept. The artist is e-mailed the reason.`}
        confirmLabel="Suspend Vendor"
        confirmVariant="destructive"
        confirmDisabled={reason.reason.trim() === ""}
        onConfirm={() => {
          status.change("suspended", reason.reason.trim());
          close();
        }}
      >
        <StatusReasonField state={reason} required />
      </ConfirmDialog>
    </TitledCard>
  );
}
