/** Placeholder route for the Analytics screen; its own issue replaces this content. */
export default function AnalyticsPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-2">
      <h1 id="page-title" className="text-2xl font-bold">
        Analytics
      </h1>
      <p className="text-gray-600">The analytics data for this screen is being built.</p>
    </section>
  );
}
