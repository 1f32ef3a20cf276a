import { Spinner } from "@web/components/ui/spinner";

/** Shown while the first lazy screen's code loads (the router's HydrateFallback). */
export function RoutePending() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner />
    </div>
  );
}
