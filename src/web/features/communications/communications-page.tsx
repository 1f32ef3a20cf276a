import { PageHeader } from "@web/components/ui/page-header";
import { ComposerCard } from "./composer-card";
import { HistoryCard } from "./history-card";

/** Communications (docs/product.md §17.4): the composer, then the history of announcements. */
export default function CommunicationsPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <PageHeader title="Communications" description="Announcements to artists, by e-mail and on their dashboard" />
      <ComposerCard />
      <HistoryCard />
    </section>
  );
}
