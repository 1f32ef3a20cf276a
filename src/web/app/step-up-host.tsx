import { useCallback, useEffect, useRef, useState } from "react";
import { setStepUpAsker } from "@web/lib/step-up";
import { useOnDemand } from "./on-demand";

// The dialog, Radix's dialog under it and the passkey prompt load the first time a dangerous
// action asks for a check, never with the dashboard (the signed-in start's JS, docs/performance.md).
const loadStepUpDialog = () => import("./step-up-dialog");

/** One ask: its number remounts the dialog with empty fields; `open` turns false when it is settled. */
interface Ask {
  id: number;
  open: boolean;
}

/**
 * Registers the app's one step-up asker (lib/step-up.ts) for the layout: when a dangerous action
 * answers `step_up_required`, it loads 'Confirm it's you' (step-up-dialog.tsx) if it is not loaded
 * yet and opens it; the ask answers true once a check passed. A newer ask settles an open one as
 * given up. If the dialog cannot be loaded, nobody is asked and the refusal stands.
 */
export function StepUpHost() {
  const [dialog, getDialog] = useOnDemand(loadStepUpDialog);
  const [ask, setAsk] = useState<Ask | null>(null);
  const settle = useRef<((passed: boolean) => void) | null>(null);

  useEffect(
    () =>
      setStepUpAsker(async () => {
        try {
          await getDialog();
        } catch {
          return false;
        }
        return new Promise<boolean>((resolve) => {
          settle.current?.(false);
          settle.current = resolve;
          setAsk((previous) => ({ id: (previous?.id ?? 0) + 1, open: true }));
        });
      }),
    [getDialog],
  );

  const finish = useCallback((passed: boolean) => {
    settle.current?.(passed);
    settle.current = null;
    setAsk((previous) => (previous ? { ...previous, open: false } : null));
  }, []);

  if (!dialog || !ask) return null;
  return <dialog.default key={ask.id} open={ask.open} onFinish={finish} />;
}
