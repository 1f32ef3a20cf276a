import { useId, useState } from "react";
import { type ApplicationDecision, type ApplicationItem, decideApplicationEndpoint } from "@contract/vendors";
import { useEndpointAccess } from "@web/app/current-user";
import { ReasonField } from "@web/components/reason-field";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { FormError } from "@web/components/ui/field-error";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";
import { useReasonTemplates } from "@web/lib/use-reason-templates";
import { useDecideApplication } from "./vendors-api";

const DONE: Record<ApplicationDecision, string> = { approve: "approved", reject: "rejected", request_changes: "asked for changes" };

/**
 * One application in full (docs/product.md §20.2): the statement, the portfolio, the referral and
 * the sample images (served by the storefront's host, the only one the content policy allows), and
 * the three decisions. Rejecting needs a reason and asking for changes a message: the artist is
 * e-mailed either; a note to an approval is optional.
 */
export function ApplicationReviewDialog({ item, onClose }: { item: ApplicationItem | null; onClose: () => void }) {
  const reasonId = useId();
  const templates = useReasonTemplates("artist");
  const decide = useDecideApplication();
  // Admins and support decide; every other role reads the application and is told why not.
  const { allowed: canWrite, reason: refusal } = useEndpointAccess(decideApplicationEndpoint);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<{ reason?: string; form?: string }>({});

  const close = () => {
    setReason("");
    setErrors({});
    onClose();
  };
  const run = (decision: ApplicationDecision) => {
    if (!item) return;
    if (decision !== "approve" && reason.trim() === "") {
      setErrors({ reason: decision === "reject" ? "A reason is required to reject (the artist is told it)" : "Write what the artist should change" });
      return;
    }
    decide.mutate(
      { id: item.id, decision, reason },
      {
        onSuccess: () => {
          toast({ title: `${item.name}: ${DONE[decision]}`, variant: "success" });
          close();
        },
        onError: (error) => {
          const fields = apiFieldErrors(error);
          setErrors(fields.reason ? { reason: fields.reason } : { form: apiErrorMessage(error) });
        },
      },
    );
  };

  const app = item?.application ?? null;
  return (
    <Dialog open={item !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        {item && (
          <>
            <DialogHeader>
              <DialogTitle>Application of {item.name}</DialogTitle>
              <DialogDescription>
                {item.owner} · {item.email} · applied {formatDateTime(item.appliedAt)}
              </DialogDescription>
            </DialogHeader>
            {app ? (
              <dl className="grid gap-3 text-sm">
                <div>
                  <dt className="font-medium">Portfolio</dt>
                  <dd>
                    <a href={app.portfolioUrl} target="_blank" rel="noopener noreferrer" className="break-all text-blue-700 hover:underline">
                      {app.portfolioUrl}
                    </a>
                  </dd>
                </div>
                <div>
                  <dt className="font-medium">Statement</dt>
                  <dd className="whitespace-pre-wrap">{app.statement}</dd>
                </div>
                <div>
                  <dt className="font-medium">Referral</dt>
                  <dd>{app.referral ?? "—"}</dd>
                </div>
                <div>
                  <dt className="font-medium">Sample images ({app.sampleImageUrls.length})</dt>
                  <dd className="mt-1 grid grid-cols-3 gap-2">
                    {app.sampleImageUrls.map((url, i) => (
                      <img key={url} src={url} alt={`Sample ${i + 1} of ${item.name}`} loading="lazy" referrerPolicy="no-referrer" className="aspect-square w-full rounded border object-cover" />
                    ))}
                  </dd>
                </div>
              </dl>
            ) : (
              <p className="text-sm text-gray-600">The storefront sent no application with this artist.</p>
            )}
            {!canWrite && <p className="border-t pt-3 text-sm text-gray-600">{refusal}</p>}
            {canWrite && (
              <div className="grid gap-3 border-t pt-3">
                <ReasonField id={reasonId} label="Reason or message to the artist" value={reason} onChange={setReason} templates={templates} error={errors.reason} />
                <FormError error={errors.form} />
                <div className="flex flex-wrap justify-end gap-2">
                  <Button variant="outline" onClick={close}>
                    Cancel
                  </Button>
                  <Button variant="outline" disabled={decide.isPending} onClick={() => run("request_changes")}>
                    Ask for changes
                  </Button>
                  <Button variant="destructive" disabled={decide.isPending} onClick={() => run("reject")}>
                    Reject
                  </Button>
                  <Button disabled={decide.isPending} onClick={() => run("approve")}>
                    Approve
                  </Button>
                </div>
              </div>
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
