/** Placeholder route for the Dashboard screen; its own issue replaces this content. */
export default function DashboardPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-2">
      <h1 id="page-title" className="text-2xl font-bold">
        Dashboard
      </h1>
      <p className="text-gray-600">The dashboard data for this screen is being built.</p>
    </section>
  );
}
