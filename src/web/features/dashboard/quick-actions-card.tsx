import { useNavigate } from "react-router";
import { Button, buttonVariants } from "@web/components/ui/button";
import { TitledCard } from "@web/components/ui/card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { storefrontLink, usePublicConfig } from "@web/lib/use-public-config";

/**
 * The four quick actions (docs/product.md §3): each lands where it says. 'Create Invite Code' opens
 * the storefront's invite-code manager in a new tab, as /invite-codes does; a target that is not
 * available says so on the button (a tooltip) instead of doing nothing.
 */
export function QuickActionsCard() {
  const navigate = useNavigate();
  const config = usePublicConfig();
  const inviteCodes = config.data ? storefrontLink(config.data.storefrontUrl, "/admin/invite-codes") : null;
  return (
    <TitledCard title="Quick Actions" contentClassName="grid grid-cols-2 gap-3">
      {inviteCodes ? (
        <a href={inviteCodes} target="_blank" rel="noopener noreferrer" className={buttonVariants({ variant: "outline" })}>
          Create Invite Code
          <span className="sr-only"> (opens the store admin in a new tab)</span>
        </a>
      ) : (
        <DisabledReason reason="The storefront's address is not known yet">
          <Button variant="outline" className="w-full" disabled>
            Create Invite Code
          </Button>
        </DisabledReason>
      )}
      {/* Opens the composer on Communications (docs/product.md §17.4). */}
      <Button variant="outline" onClick={() => void navigate("/communications?compose=1")}>
        Send Announcement
      </Button>
      <Button variant="outline" onClick={() => void navigate("/analytics")}>
        View Analytics
      </Button>
      {/* Opens Financials with the payout confirmation (docs/product.md §15.4). */}
      <Button variant="outline" onClick={() => void navigate("/financials?confirm=payouts")}>
        Process Payouts
      </Button>
    </TitledCard>
  );
}
