/** Placeholder route for the Error Logs screen; its own issue replaces this content. */
export default function ErrorsPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-2">
      <h1 id="page-title" className="text-2xl font-bold">
        Error Logs
      </h1>
      <p className="text-gray-600">The error log data for this screen is being built.</p>
    </section>
  );
}
