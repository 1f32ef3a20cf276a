import { isRouteErrorResponse, useRouteError } from "react-router";

/**
 * The router's errorElement (docs/product.md §2.4: 'Unexpected Application Error!'). React Router's own
 * screen for this only appears in development builds, so production needs this one.
 */
export function RouteErrorScreen() {
  const error = useRouteError();
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
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
