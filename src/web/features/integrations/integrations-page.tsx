import { PageHeader } from "@web/components/ui/page-header";
import { ApiKeysSection } from "./api-keys-section";
import { IncomingEventsSection } from "./incoming-events-section";
import { WebhooksSection } from "./webhooks-section";

/**
 * Integrations (docs/integration.md): how the marketplace's own services talk to the panel. A
 * composition of sections, one file each: the API keys services call with (the storefront sends its
 * events with one); more sections join it as the panel connects to more.
 */
export default function IntegrationsPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <PageHeader title="Integrations" description="Keys for the storefront and other services that send events to the panel, and the webhooks that tell them what it decided." />
      <ApiKeysSection />
      <WebhooksSection />
      <IncomingEventsSection />
    </section>
  );
}
