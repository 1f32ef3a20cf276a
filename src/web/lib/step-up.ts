/**
 * Who asks the signed-in user for a second-factor check when a dangerous action answers 403
 * `step_up_required` (docs/product.md "Step-up"): the app's one step-up dialog registers itself
 * here, and the API client (api-client.ts) asks through it and sends the action again once it
 * passed. Without a dialog (a screen rendered on its own) nobody is asked and the refusal stands.
 */
type Asker = () => Promise<boolean>;

let asker: Asker | null = null;

/** Registers the dialog that asks (null to unregister); answers the function that unregisters it. */
export function setStepUpAsker(next: Asker): () => void {
  asker = next;
  return () => {
    if (asker === next) asker = null;
  };
}

/** Asks for a check; true once it passed, false when the user gave up or nobody can ask. */
export function askForStepUp(): Promise<boolean> {
  return asker ? asker() : Promise.resolve(false);
}
