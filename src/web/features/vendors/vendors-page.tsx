/** Placeholder route for the Vendors screen; its own issue replaces this content. */
export default function VendorsPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-2">
      <h1 id="page-title" className="text-2xl font-bold">
        Vendors
      </h1>
      <p className="text-gray-600">The vendor data for this screen is being built.</p>
    </section>
  );
}
