import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@web/components/ui/alert-dialog";

interface DialogTarget {
  name: string;
}

interface ConfirmDialogProps {
  vendor: DialogTarget | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Confirms enabling or disabling a vendor; disabling states the spec's three consequences. */
export function VendorStatusDialog({ vendor, nextActive, onCancel, onConfirm }: ConfirmDialogProps & { nextActive: boolean }) {
  return (
    <AlertDialog open={vendor !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{nextActive ? "Enable Vendor" : "Disable Vendor"}</AlertDialogTitle>
          <AlertDialogDescription asChild>
            {nextActive ? (
              <div>
                Enable <strong>{vendor?.name}</strong>? Their store becomes visible in public listings again and they regain access
                to their vendor dashboard.
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
            )}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant={nextActive ? "default" : "destructive"} onClick={onConfirm}>
            {nextActive ? "Enable Vendor" : "Disable Vendor"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * Confirms a permanent delete. The only confirm button names the configured auth provider, as the
 * server reports it: under Clerk it reads exactly 'Delete Vendor & Clerk Account'.
 */
export function VendorDeleteDialog({ vendor, providerName, onCancel, onConfirm }: ConfirmDialogProps & { providerName: string }) {
  return (
    <AlertDialog open={vendor !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Vendor</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div>
              <p className="font-medium text-red-700">This action cannot be undone.</p>
              <p className="mt-2">
                This will permanently remove the vendor account of <strong>{vendor?.name}</strong>, their store, their products and
                all their data. It also deletes their user account at the authentication provider ({providerName}).
              </p>
              <p className="mt-2">If you only want to stop them selling for now, consider disabling the vendor instead.</p>
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant="destructive" onClick={onConfirm}>
            {`Delete Vendor & ${providerName} Account`}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
