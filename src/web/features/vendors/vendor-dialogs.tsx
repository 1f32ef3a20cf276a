import { ConfirmDialog } from "@web/components/ui/alert-dialog";

interface DialogTarget {
  name: string;
}

interface VendorDialogProps {
  vendor: DialogTarget | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Confirms enabling or disabling a vendor; disabling states the product's three consequences. */
export function VendorStatusDialog({ vendor, nextActive, onCancel, onConfirm }: VendorDialogProps & { nextActive: boolean }) {
  const action = nextActive ? "Enable Vendor" : "Disable Vendor";
  return (
    <ConfirmDialog
      open={vendor !== null}
      onOpenChange={(open) => !open && onCancel()}
      title={action}
      confirmLabel={action}
      confirmVariant={nextActive ? "default" : "destructive"}
      onConfirm={onConfirm}
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
    />
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
