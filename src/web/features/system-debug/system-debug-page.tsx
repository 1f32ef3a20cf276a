/** Placeholder route for the System Debug screen; its own issue replaces this content. */
export default function SystemDebugPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-2">
      <h1 id="page-title" className="text-2xl font-bold">
        System Debug
      </h1>
      <p className="text-gray-600">The system health data for this screen is being built.</p>
    </section>
  );
}
