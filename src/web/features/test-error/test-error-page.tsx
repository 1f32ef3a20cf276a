/** Placeholder route for the Test Error screen; its own issue replaces this content. */
export default function TestErrorPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-2">
      <h1 id="page-title" className="text-2xl font-bold">
        Test Error
      </h1>
      <p className="text-gray-600">The error-testing data for this screen is being built.</p>
    </section>
  );
}
