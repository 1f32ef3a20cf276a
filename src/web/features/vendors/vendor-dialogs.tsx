import { useId, useState } from "react";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { ReasonField } from "@web/components/reason-field";
import { useReasonTemplates } from "@web/lib/use-reason-templates";

interface DialogTarget {
  name: string;
}

interface VendorDialogProps {
  vendor: DialogTarget | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * The reason of a status change as a dialog asks for it: required to disable or suspend (the artist
 * is told it), an optional note to enable; cleared when the dialog closes.
 */
export function useStatusReason() {
  const id = useId();
  const templates = useReasonTemplates("artist");
  const [reason, setReason] = useState("");
  return { id, templates, reason, setReason, clear: () => setReason("") };
}

export function StatusReasonField({ state, required }: { state: ReturnType<typeof useStatusReason>; required: boolean }) {
  return (
    <ReasonField
      id={state.id}
      label={required ? "Reason (the artist is told it)" : "Note to the artist (optional)"}
      value={state.reason}
      onChange={state.setReason}
      templates={state.templates}
      required={required}
    />
  );
}

/** Confirms enabling or disabling a vendor; disabling states the product's three consequences and asks for the reason. */
export function VendorStatusDialog({ vendor, nextActive, onCancel, onConfirm }: Omit<VendorDialogProps, "onConfirm"> & { nextActive: boolean; onConfirm: (reason: string) => void }) {
  const action = nextActive ? "Enable Vendor" : "Disable Vendor";
  const reason = useStatusReason();
  return (
    <ConfirmDialog
      open={vendor !== null}
      onOpenChange={(open) => {
        if (open) return;
        reason.clear();
        onCancel();
      }}
      title={action}
      confirmLabel={action}
      confirmVariant={nextActive ? "default" : "destructive"}
      confirmDisabled={!nextActive && reason.reason.trim() === ""}
      onConfirm={() => {
        onConfirm(reason.reason);
        reason.clear();
      }}
      description={
        nextActive ? (
          <div>
            Enable <strong>{vendor?.name}</strong>? Their store becomes visible in public listings again and they regain access to their vendor dashboard.
          </div>
        ) : (
          <div>
            <p>
              Are you sure you want to disable <strong>{vendor?.name}</strong>?
            </p>
            <ul className="mt-2 list-disc pl-5">
              <li>Their store will be hidden from public listings.</li>
              <li>They will not be able to access their vendor dashboard.</li>
              <li>All their data will be kept, so the vendor can be reactivated later.</li>
            </ul>
          </div>
        )
      }
    >
      <StatusReasonField state={reason} required={!nextActive} />
    </ConfirmDialog>
  );
}

/**
 * Confirms a permanent delete. The only confirm button names the configured auth provider, as the
 * server reports it: under Clerk it reads exactly 'Delete Vendor & Clerk Account'.
 */
export function VendorDeleteDialog({ vendor, providerName, onCancel, onConfirm }: VendorDialogProps & { providerName: string }) {
  return (
    <ConfirmDialog
      open={vendor !== null}
      onOpenChange={(open) => !open && onCancel()}
      title="Delete Vendor"
      confirmLabel={`Delete Vendor & ${providerName} Account`}
      confirmVariant="destructive"
      onConfirm={onConfirm}
      description={
        <div>
          <p className="font-medium text-red-700">This action cannot be undone.</p>
          <p className="mt-2">
            This will permanently remove the vendor account of <strong>{vendor?.name}</strong>, their store, their products and all their data. It also deletes their user account at the authentication
            provider ({providerName}).
          </p>
          <p className="mt-2">If you only want to stop them selling for now, consider disabling the vendor instead.</p>
        </div>
      }
    />
  );
}
