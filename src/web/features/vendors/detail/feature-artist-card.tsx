import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { FEATURED_MAX_DAYS, FEATURED_MIN_DAYS, setFeaturedArtistEndpoint } from "@contract/featured-artist";
import type { VendorDetail } from "@contract/vendors";
import { useEndpointAccess } from "@web/app/current-user";
import { Button } from "@web/components/ui/button";
import { TitledCard } from "@web/components/ui/card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { FieldError, invalidProps } from "@web/components/ui/field-error";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, apiFieldErrors, callApi, mutationOf } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";

const DEFAULT_DAYS = 7;

/** Why this vendor cannot be featured (the server refuses it too), or undefined. */
function notFeaturable(vendor: VendorDetail): string | undefined {
  if (vendor.isInternal) return "Internal stores cannot be featured";
  if (vendor.status === "suspended") return "Reactivate the artist before featuring it";
  return undefined;
}

/**
 * 'Feature this artist' on the vendor's Settings tab (docs/product.md §18.1): for 1–90 days from
 * now (replacing the artist featured now) or, ticked, after the current one and the queue.
 */
export function FeatureArtistCard({ vendor }: { vendor: VendorDetail }) {
  const [days, setDays] = useState(String(DEFAULT_DAYS));
  const [afterCurrent, setAfterCurrent] = useState(false);
  const { reason } = useEndpointAccess(setFeaturedArtistEndpoint);
  const feature = useMutation({
    ...mutationOf(setFeaturedArtistEndpoint),
    mutationFn: (body: { vendorId: string; duration: number; startAfterCurrent: boolean }) => callApi(setFeaturedArtistEndpoint, { body }),
  });
  const duration = Number(days);
  const durationError =
    Number.isInteger(duration) && duration >= FEATURED_MIN_DAYS && duration <= FEATURED_MAX_DAYS
      ? (apiFieldErrors(feature.error).duration ?? undefined)
      : `Between ${FEATURED_MIN_DAYS} and ${FEATURED_MAX_DAYS} days`;
  const blocked = notFeaturable(vendor) ?? reason;
  const submit = () =>
    feature.mutate(
      { vendorId: vendor.id, duration, startAfterCurrent: afterCurrent },
      {
        onSuccess: (answer) => {
          const slot = [answer.current, ...answer.upcoming].findLast((s) => s?.vendorId === vendor.id);
          toast({ title: slot ? `${vendor.name} is featured from ${formatDateTime(slot.startsAt)} until ${formatDateTime(slot.endsAt)}` : `${vendor.name} is featured`, variant: "success" });
        },
        onError: (error) => toast({ title: `Failed to feature the artist: ${apiErrorMessage(error)}`, variant: "destructive" }),
      },
    );

  return (
    <TitledCard title="Featured artist" contentClassName="grid gap-3">
      <p className="text-gray-600">The storefront shows the featured artist on its home page. Featuring this artist replaces the one featured now, unless queued after it.</p>
      <div className="grid max-w-xs gap-1.5">
        <Label htmlFor="feature-days">Duration (days)</Label>
        <Input
          id="feature-days"
          type="number"
          inputMode="numeric"
          min={FEATURED_MIN_DAYS}
          max={FEATURED_MAX_DAYS}
          step={1}
          value={days}
          onChange={(e) => setDays(e.target.value)}
          {...invalidProps("feature-days", durationError)}
        />
        <FieldError id="feature-days" error={durationError} />
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={afterCurrent} onChange={(e) => setAfterCurrent(e.target.checked)} />
        Start after the current featured artist
      </label>
      <div>
        <DisabledReason reason={blocked}>
          <Button onClick={submit} disabled={Boolean(blocked) || Boolean(durationError) || feature.isPending}>
            Feature this artist
          </Button>
        </DisabledReason>
      </div>
    </TitledCard>
  );
}
