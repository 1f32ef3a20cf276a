import { Card, CardDescription, CardHeader } from "@web/components/ui/card";

/** docs/product.md §9.1: /products, /financials, /communications and /admin-users say 'Coming Soon'. */
export function ComingSoon({ section }: { section: string }) {
  return (
    <section aria-labelledby="page-title" className="grid gap-4">
      <h1 id="page-title" className="text-2xl font-bold">
        {section}
      </h1>
      <Card>
        <CardHeader>
          <h2 className="text-lg font-semibold">Coming Soon</h2>
          <CardDescription>The {section} section is not available yet.</CardDescription>
        </CardHeader>
      </Card>
    </section>
  );
}

export const FinancialsPage = () => <ComingSoon section="Financials" />;
export const CommunicationsPage = () => <ComingSoon section="Communications" />;
