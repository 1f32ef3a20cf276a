import { lazy, Suspense } from "react";
import { useToast } from "./toast-store";

// Radix Toast loads with the first toast, keeping it out of the first screen's JS.
const Toaster = lazy(async () => ({ default: (await import("./toast")).Toaster }));

export function ToasterHost() {
  const { toasts } = useToast();
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
