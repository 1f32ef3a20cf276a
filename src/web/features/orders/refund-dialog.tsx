import { type FormEvent, useId, useState } from "react";
import { type OrderDetail, REFUND_REASON_MAX } from "@contract/orders";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { FieldError, invalidProps } from "@web/components/ui/field-error";
import { FormDialogFooter } from "@web/components/ui/form-dialog-footer";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Textarea } from "@web/components/ui/textarea";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors } from "@web/lib/api-client";
import { formatCurrency, roundCents } from "@web/lib/format";
import { orderLabel } from "./order-columns";
import { useCreateRefund } from "./orders-api";

interface LineChoice {
  orderId: string;
  label: string;
  what: string;
  /** Dollars the line can still be refunded. */
  left: number;
  checked: boolean;
  /** Dollars to refund, as typed. */
  amount: string;
}

function choicesOf(detail: OrderDetail, onlyLineId: string): LineChoice[] {
  return detail.refundable
    .filter((r) => r.amount > 0)
    .map((r) => {
      const line = detail.siblings.find((s) => s.id === r.orderId);
      return {
        orderId: r.orderId,
        label: line ? orderLabel(line) : r.orderId,
        what: line ? `${line.productName} · ${line.vendorName}` : "",
        left: r.amount,
        checked: r.orderId === onlyLineId,
        amount: r.amount.toFixed(2),
      };
    });
}

/** Dollars typed as text → whole cents, or null when it is not an amount. */
const centsOf = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : null);

/**
 * Refund lines of a storefront order, or all of it (docs/product.md "Refunds from the panel"): each
 * line chosen with its amount (all it has left unless changed), a required reason, and what will
 * happen said before it does: one Stripe refund on the order's payment, the artists' earnings and
 * the platform's fee taken down by their shares, netted from the next payout where the artist was
 * already paid.
 */
export function RefundDialog({ detail, lineId, open, onClose }: { detail: OrderDetail; lineId: string; open: boolean; onClose: () => void }) {
  const reasonId = useId();
  const create = useCreateRefund();
  const [lines, setLines] = useState<LineChoice[]>(() => choicesOf(detail, lineId));
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const chosen = lines.filter((l) => l.checked);
  const total = roundCents(chosen.reduce((s, l) => s + (centsOf(l.amount) ?? 0) / 100, 0));
  const whole = lines.length > 0 && lines.every((l) => l.checked && centsOf(l.amount) === Math.round(l.left * 100));

  const change = (orderId: string, patch: Partial<LineChoice>) => setLines((all) => all.map((l) => (l.orderId === orderId ? { ...l, ...patch } : l)));
  const close = () => {
    setErrors({});
    setReason("");
    setLines(choicesOf(detail, lineId));
    onClose();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (chosen.length === 0) found.form = "Choose at least one line to refund";
    chosen.forEach((l) => {
      const cents = centsOf(l.amount);
      if (cents === null || cents <= 0) found[l.orderId] = "Enter an amount in dollars, such as 12.50";
      else if (cents > Math.round(l.left * 100)) found[l.orderId] = `At most ${formatCurrency(l.left)} is left to refund`;
    });
    if (reason.trim() === "") found.reason = "A reason is required (it is kept with the refund and shown on the order)";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = whole ? { reason: reason.trim() } : { reason: reason.trim(), lines: chosen.map((l) => ({ orderId: l.orderId, amountCents: centsOf(l.amount)! })) };
    create.mutate(
      { id: lineId, body },
      {
        onSuccess: (answer) => {
          const refused = answer.refund.status === "failed";
          toast({
            title: refused ? "Refund not made" : answer.refund.status === "succeeded" ? `Refunded ${formatCurrency(answer.refund.amount)}` : "Refund asked of Stripe",
            description: answer.message,
            variant: refused ? "destructive" : "success",
          });
          close();
        },
        onError: (error) => {
          const fields = apiFieldErrors(error);
          setErrors(fields.reason ? { reason: fields.reason } : { form: apiErrorMessage(error) });
        },
      },
    );
  };

  const netted = detail.carriedBy !== null && chosen.some((l) => l.orderId === lineId);
  return (
    <Dialog open={open} onOpenChange={(o) => !o && close()}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Refund {detail.order.externalOrderId ?? "this order"}</DialogTitle>
          <DialogDescription>One Stripe refund on the buyer's payment ({detail.paymentIntentId}). It cannot be undone.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" noValidate onSubmit={onSubmit}>
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium">Lines to refund</legend>
            <Button type="button" size="sm" variant="outline" className="justify-self-start" onClick={() => setLines((all) => all.map((l) => ({ ...l, checked: true, amount: l.left.toFixed(2) })))}>
              Whole order
            </Button>
            {lines.map((l) => (
              <div key={l.orderId} className="grid gap-1">
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <label className="flex items-center gap-2">
                    <input type="checkbox" checked={l.checked} onChange={(e) => change(l.orderId, { checked: e.target.checked })} />
                    <span className="font-medium">{l.label}</span>
                  </label>
                  <span className="text-gray-700">
                    {l.what} · {formatCurrency(l.left)} left
                  </span>
                  <Input
                    aria-label={`Amount to refund of ${l.label} (dollars)`}
                    className="w-28"
                    inputMode="decimal"
                    value={l.amount}
                    disabled={!l.checked}
                    onChange={(e) => change(l.orderId, { amount: e.target.value })}
                    {...invalidProps(`refund-${l.orderId}`, errors[l.orderId])}
                  />
                </div>
                <FieldError id={`refund-${l.orderId}`} error={errors[l.orderId]} />
              </div>
            ))}
          </fieldset>
          <div className="grid gap-1">
            <Label htmlFor={reasonId}>Reason</Label>
            <Textarea id={reasonId} value={reason} maxLength={REFUND_REASON_MAX} required onChange={(e) => setReason(e.target.value)} {...invalidProps(reasonId, errors.reason)} />
            <FieldError id={reasonId} error={errors.reason} />
          </div>
          <p className="text-sm text-gray-800" data-testid="refund-summary">
            {chosen.length === 0
              ? "No line chosen."
              : `${formatCurrency(total)} goes back to the buyer's card${whole ? " (the whole order)" : ""}. Each artist's earnings and the platform's fee go down by their shares of it.`}
            {netted && ` ${detail.vendor.name} was already paid for this line: their share comes off their next payout.`}
          </p>
          <FormDialogFooter error={errors.form} onCancel={close}>
            <Button type="submit" variant="destructive" disabled={create.isPending || chosen.length === 0}>
              {create.isPending ? "Refunding…" : `Refund ${formatCurrency(total)}`}
            </Button>
          </FormDialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
