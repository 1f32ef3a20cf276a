import { Link } from "react-router";
import { endFeaturedArtistEndpoint, type FeaturedSlot } from "@contract/featured-artist";
import { useEndpointAccess } from "@web/app/current-user";
import { Button, buttonVariants } from "@web/components/ui/button";
import { TitledCard } from "@web/components/ui/card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { Spinner } from "@web/components/ui/spinner";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";
import { useEndFeaturedArtist, useFeaturedArtist } from "./dashboard-api";

/**
 * 'Featured Artist' (docs/product.md §18.1): who is featured and until when, who comes next, and
 * how to change it: an artist is featured from its vendor page (Settings tab, 'Feature this
 * artist'), so 'Change' leads to the vendor list; 'End now' ends the current one early.
 */
export function FeaturedArtistCard({ enabled }: { enabled: boolean }) {
  const featured = useFeaturedArtist(enabled);
  const end = useEndFeaturedArtist();
  const { allowed: canWrite, reason } = useEndpointAccess(endFeaturedArtistEndpoint);
  const current = featured.data?.current ?? null;
  const next = featured.data?.upcoming[0] ?? null;
  const endNow = () =>
    end.mutate(undefined, {
      onSuccess: () => toast({ title: "Featured artist ended", variant: "success" }),
      onError: (error) => toast({ title: `Failed to end the featured artist: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });

  return (
    <TitledCard title="Featured Artist" contentClassName="grid gap-3 text-sm" role="region" aria-label="Featured Artist">
      {featured.isError ? (
        <p role="alert" className="text-red-700">
          {apiErrorMessage(featured.error)}
        </p>
      ) : !featured.data ? (
        <Spinner label="Loading featured artist" />
      ) : (
        <>
          {current ? <SlotLine slot={current} prefix="Featured until" /> : <p className="text-gray-600">No artist is featured right now.</p>}
          {next ? <SlotLine slot={next} prefix="Next, from" at={next.startsAt} muted /> : null}
          <div className="flex flex-wrap gap-2">
            <Link to="/vendors" className={buttonVariants({ variant: "outline", size: "sm" })}>
              {current ? "Change" : "Choose an artist"}
            </Link>
            {current ? (
              <DisabledReason reason={reason}>
                <Button variant="ghost" size="sm" onClick={endNow} disabled={!canWrite || end.isPending}>
                  End now
                </Button>
              </DisabledReason>
            ) : null}
          </div>
        </>
      )}
    </TitledCard>
  );
}

function SlotLine({ slot, prefix, at = slot.endsAt, muted = false }: { slot: FeaturedSlot; prefix: string; at?: string; muted?: boolean }) {
  return (
    <p className={muted ? "text-gray-600" : undefined}>
      <Link to={`/vendors/${slot.vendorId}`} className="font-medium text-blue-700 hover:underline">
        {slot.vendorName}
      </Link>{" "}
      <span>
        {prefix} <time dateTime={at}>{formatDateTime(at)}</time>
      </span>
    </p>
  );
}
