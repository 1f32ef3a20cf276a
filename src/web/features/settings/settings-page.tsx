/** Placeholder route for the Settings screen; its own issue replaces this content. */
export default function SettingsPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-2">
      <h1 id="page-title" className="text-2xl font-bold">
        Settings
      </h1>
      <p className="text-gray-600">The platform settings data for this screen is being built.</p>
    </section>
  );
}
