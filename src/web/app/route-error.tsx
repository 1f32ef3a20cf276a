/** An unknown URL's error (the route table's catch-all). */
export const NOT_FOUND = { status: 404, statusText: "Not Found" };

/**
 * A route's error screen (docs/product.md §2.4: 'Unexpected Application Error!'), shown by the route
 * table's error boundaries (router.tsx) for a screen that failed to load or render, and for an unknown URL.
 */
export function RouteErrorScreen({ error }: { error: unknown }) {
  return (
    <div role="alert" className="mx-auto max-w-2xl p-6">
      <h1 className="text-2xl font-bold text-red-700">Unexpected Application Error!</h1>
      <p className="mt-2 text-gray-800">{describeError(error)}</p>
      <a href="/" className="mt-4 inline-block text-blue-700 underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600">
        Back to the dashboard
      </a>
    </div>
  );
}

function describeError(error: unknown): string {
  if (typeof error === "object" && error !== null && "status" in error && "statusText" in error) return `${String(error.status)} ${String(error.statusText)}`.trim();
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
