import { useId, useState } from "react";
import { setVendorTrustedEndpoint, type VendorDetail } from "@contract/vendors";
import { ReasonField } from "@web/components/reason-field";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { toast } from "@web/components/ui/toast";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { useSetVendorTrusted } from "../vendors-api";

/**
 * The artist's 'trusted' flag (docs/product.md §20.4): a trusted artist's new listings go live
 * without review. Changing it asks for an optional reason, kept in the status history and the audit log.
 */
export function TrustedControl({ vendor }: { vendor: VendorDetail }) {
  const reasonId = useId();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const setTrusted = useSetVendorTrusted();
  const next = !vendor.trusted;

  const confirm = () => {
    setAsking(false);
    setTrusted.mutate(
      { id: vendor.id, trusted: next, reason },
      {
        onSuccess: () => toast({ title: next ? `${vendor.name} is trusted: new listings skip review` : `${vendor.name}'s new listings are reviewed again`, variant: "success" }),
        onError: (error) => toast({ title: `Failed to change trust: ${apiErrorMessage(error)}`, variant: "destructive" }),
      },
    );
    setReason("");
  };

  return (
    <>
      <WriteButton endpoint={setVendorTrustedEndpoint} size="sm" variant="outline" disabled={setTrusted.isPending} onClick={() => setAsking(true)}>
        {vendor.trusted ? "Stop trusting" : "Mark trusted"}
      </WriteButton>
      <ConfirmDialog
        open={asking}
        onOpenChange={(open) => {
          if (open) return;
          setAsking(false);
          setReason("");
        }}
        title={next ? `Trust ${vendor.name}?` : `Stop trusting ${vendor.name}?`}
        description={next ? "Their new listings go live without waiting for review." : "Their new listings wait for review again when 'Review new listings' asks for it."}
        confirmLabel={next ? "Mark trusted" : "Stop trusting"}
        onConfirm={confirm}
      >
        <ReasonField id={reasonId} label="Reason (optional)" value={reason} onChange={setReason} templates={[]} />
      </ConfirmDialog>
    </>
  );
}
