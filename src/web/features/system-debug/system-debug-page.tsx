import { ListState, RefreshButton } from "@web/components/list";
import { PageHeader } from "@web/components/ui/page-header";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { ApiCard } from "./api-card";
import { AuthProviderCard } from "./auth-provider-card";
import { OverallStatusCard } from "./overall-status-card";
import { PaymentProviderCard } from "./payment-provider-card";
import { RawDataCard } from "./raw-data-card";
import { StripeReconciliationCard } from "./stripe-reconciliation-card";
import { debugErrorText, useDebugAdmin } from "./system-debug-api";
import { UserCard } from "./user-card";

/**
 * System Debug (docs/product.md §8.1): overall status, Refresh, last-checked time, then a card a
 * section; a failure is an 'Error' card with 'API returned {status}' or the error's own message.
 */
export default function SystemDebugPage() {
  const ready = useLoadDelay();
  const debug = useDebugAdmin(ready);

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <PageHeader title="System Debug" description="Authentication, payment and API health.">
        <RefreshButton query={debug} busyLabel="Refreshing…" disabled={!ready} />
      </PageHeader>

      <OverallStatusCard data={debug.data} checkedAt={debug.dataUpdatedAt} />

      <ListState query={debug} isEmpty={() => false} loadingLabel="Loading system status" errorTitle="Error" errorMessage={debugErrorText} emptyText="">
        {(data) => (
          <div className="grid gap-4 lg:grid-cols-2">
            <UserCard data={data} />
            <AuthProviderCard data={data} />
            <PaymentProviderCard data={data} />
            <ApiCard data={data} />
            <StripeReconciliationCard facts={data.stripeReconciliation} />
            <RawDataCard data={data} />
          </div>
        )}
      </ListState>
    </section>
  );
}
