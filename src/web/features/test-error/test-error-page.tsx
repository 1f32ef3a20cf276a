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

/** The page's two probes: what each card says, its button, and the call it makes. */
const PROBES = [
  { title: "Error logging", description: "Writes an info entry to the Error Logs and returns an error payload.", label: "Test Error Logging", endpoint: testErrorEndpoint },
  { title: "Invalid product", description: "Fetches the dashboard stats.", label: "Create Invalid Product", endpoint: dashboardStatsEndpoint },
] as const;

/**
 * Hidden page (docs/product.md §8.3, not in the navigation). 'Test Error Logging' posts to the debug endpoint,
 * which writes one info row to the error logs and answers with an error payload; 'Create Invalid
 * Product' only fetches the dashboard stats, as docs/product.md §8.3 says.
 */
export default function TestErrorPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <h1 id="page-title" className="text-2xl font-bold">
        Test Error
      </h1>
      <div className="grid gap-4 md:grid-cols-2">
        {PROBES.map((probe) => (
          <Probe key={probe.label} {...probe} />
        ))}
      </div>
    </section>
  );
}

interface ProbeProps {
  title: string;
  description: string;
  label: string;
  endpoint: typeof testErrorEndpoint | typeof dashboardStatsEndpoint;
}

function Probe({ title, description, label, endpoint }: ProbeProps) {
  // The test-error call writes a log entry even though it answers 418, so its areas (error-logs,
  // dashboard) are refreshed after every click: the mutation itself always resolves to an outcome.
  const run = useMutation({ ...mutationOf(endpoint), mutationFn: () => outcomeOf(() => callApi(endpoint, {})) });
  const outcome = run.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div>
          <Button onClick={() => run.mutate()} disabled={run.isPending}>
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
