import { useMutation } from "@tanstack/react-query";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { dashboardStatsEndpoint } from "@contract/dashboard";
import { testErrorEndpoint } from "@contract/system-debug";
import { callApi, mutationOf } from "@web/lib/api-client";

/** What one click brought back: the answer's JSON on success, the API client's error text otherwise. */
interface Outcome {
  ok: boolean;
  text: string;
}

async function outcomeOf(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, text: JSON.stringify(await call(), null, 2) };
  } catch (error) {
    return { ok: false, text: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Hidden page (docs/product.md §8.3, not in the navigation). 'Test Error Logging' posts to the debug endpoint,
 * which writes one info row to the error logs and answers with an error payload; 'Create Invalid
 * Product' only fetches the dashboard stats, as docs/product.md §8.3 says.
 */
export default function TestErrorPage() {
  // The test-error call writes a log entry even though it answers 418, so its areas (errors,
  // dashboard) are refreshed after every click: the mutation itself always resolves to an outcome.
  const testError = useMutation({ ...mutationOf(testErrorEndpoint), mutationFn: () => outcomeOf(() => callApi(testErrorEndpoint, {})) });
  const invalidProduct = useMutation({ ...mutationOf(dashboardStatsEndpoint), mutationFn: () => outcomeOf(() => callApi(dashboardStatsEndpoint, {})) });

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <h1 id="page-title" className="text-2xl font-bold">
        Test Error
      </h1>
      <div className="grid gap-4 md:grid-cols-2">
        <Probe
          title="Error logging"
          description="Writes an info entry to the Error Logs and returns an error payload."
          label="Test Error Logging"
          pending={testError.isPending}
          outcome={testError.data}
          onRun={() => testError.mutate()}
        />
        <Probe
          title="Invalid product"
          description="Fetches the dashboard stats."
          label="Create Invalid Product"
          pending={invalidProduct.isPending}
          outcome={invalidProduct.data}
          onRun={() => invalidProduct.mutate()}
        />
      </div>
    </section>
  );
}

interface ProbeProps {
  title: string;
  description: string;
  label: string;
  pending: boolean;
  outcome: Outcome | undefined;
  onRun: () => void;
}

function Probe({ title, description, label, pending, outcome, onRun }: ProbeProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div>
          <Button onClick={onRun} disabled={pending}>
            {label}
          </Button>
        </div>
        <div aria-live="polite" aria-label={`${label} result`} role="region">
          {outcome ? (
            <>
              <p className={outcome.ok ? "text-sm font-medium text-green-700" : "text-sm font-medium text-red-700"}>{outcome.ok ? "Success" : "Error"}</p>
              <pre className="max-h-64 overflow-auto rounded bg-gray-50 p-3 text-xs whitespace-pre-wrap break-all">{outcome.text}</pre>
            </>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
