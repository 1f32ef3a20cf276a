import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { PayoutRunItem } from "@contract/financials";
import { useUrlParams } from "@web/components/list";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf, formatCurrency } from "@web/lib/format";
import { financialKeys, isActiveRun, useLatestRun, usePayoutPreview, useStartPayoutRun } from "./financials-api";
import { runEndToast } from "./financials-text";

/**
 * 'Process Payouts' from start to end (docs/product.md §15.4): the dry run behind the
 * confirmation (opened once on arrival with ?confirm=payouts, the dashboard's quick action), the
 * start, and when the run ends every figure read again and the outcome told.
 */
export function usePayoutRun(ready: boolean) {
  const [params, update] = useUrlParams();
  const latestRun = useLatestRun(ready);
  const activeRun = latestRun.data && isActiveRun(latestRun.data) ? latestRun.data : null;
  const queryClient = useQueryClient();
  const preview = usePayoutPreview();
  const start = useStartPayoutRun();
  const [previewRun, setPreviewRun] = useState<PayoutRunItem | null>(null);

  const openConfirmation = () =>
    preview.mutate(undefined, {
      onSuccess: (run) => setPreviewRun(run),
      onError: (error) => toast({ title: `Failed to prepare payouts: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });

  const wantsConfirmation = params.get("confirm") === "payouts";
  useEffect(() => {
    if (!ready || !wantsConfirmation) return;
    update({ confirm: null }, { resetPages: "none" });
    openConfirmation();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per arrival with the flag
  }, [ready, wantsConfirmation]);

  const seenActive = useRef<string | null>(null);
  useEffect(() => {
    const run = latestRun.data;
    if (!run) return;
    if (isActiveRun(run)) {
      seenActive.current = run.id;
    } else if (seenActive.current === run.id) {
      seenActive.current = null;
      void queryClient.invalidateQueries({ queryKey: financialKeys.all });
      toast(runEndToast(run));
    }
  }, [latestRun.data, queryClient]);

  const confirm = () => {
    setPreviewRun(null);
    start.mutate(undefined, {
      onSuccess: (run) => {
        seenActive.current = run.id;
        queryClient.setQueryData(financialKeys.latestRun(), run);
        toast({ title: "Payout run started", description: `Paying ${countOf(run.vendors, "artist")} ${formatCurrency(run.total)}.` });
      },
      onError: (error) => toast({ title: `Failed to start payouts: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  return {
    latestRun: latestRun.data ?? null,
    activeRun,
    previewRun,
    preparing: preview.isPending,
    /** A run can be asked for: the screen is ready and no run is being prepared, started or paid. */
    canStart: ready && !preview.isPending && !start.isPending && activeRun === null,
    openConfirmation,
    confirm,
    dismiss: () => setPreviewRun(null),
  };
}
