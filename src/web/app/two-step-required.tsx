import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { queryKeys } from "@web/lib/query-keys";
import { useSignOut } from "./auth";
import { useOnDemand } from "./on-demand";

// The enrolment dialog (and Radix's dialog under it) loads on the press, not with every session's
// first screen (the signed-in start's JS, docs/performance.md).
const loadTwoStepDialog = () => import("./two-step-dialog");

/**
 * Shown instead of the panel while two-step sign-in is required for all staff and this session's
 * user has none yet (docs/product.md "Two-step sign-in"): the server refuses the panel's calls
 * until then. Enrolling (the user menu's dialog) reloads who is signed in, and the panel opens.
 */
export function TwoStepRequired({ onStart, onDone }: { onStart: () => void; onDone: () => void }) {
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  const [dialog, getDialog] = useOnDemand(loadTwoStepDialog);
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-xl font-semibold leading-none tracking-tight">Set up two-step sign-in</h1>
          <CardDescription>
            Two-step sign-in is required for all staff. Set up an authenticator app on your phone to open the panel: from now on, signing in asks for its code after your password.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col items-center gap-2">
          <Button
            onClick={() => {
              onStart();
              void getDialog().then(() => setOpen(true));
            }}
          >
            Set up two-step sign-in
          </Button>
          <Button variant="ghost" size="sm" onClick={() => void signOut()}>
            Sign out
          </Button>
        </CardContent>
      </Card>
      {dialog ? (
        <dialog.default
          open={open}
          onClose={() => {
            setOpen(false);
            onDone();
            void queryClient.invalidateQueries({ queryKey: queryKeys.auth.all });
          }}
        />
      ) : null}
    </main>
  );
}
