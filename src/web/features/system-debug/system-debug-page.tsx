import type { ReactNode } from "react";
import type { DebugResponse } from "@contract/system-debug";
import { Badge, type BadgeVariant } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { formatCurrency, formatDateTime } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { type HealthStatus, PROBLEM_TEXT, healthProblems, healthStatus } from "./health-status";
import { debugErrorText, useDebugAdmin } from "./system-debug-api";

const STATUS_BADGE: Record<HealthStatus, { label: string; variant: BadgeVariant }> = {
  healthy: { label: "Healthy", variant: "success" },
  warning: { label: "Warning", variant: "warning" },
  critical: { label: "Critical", variant: "destructive" },
  unknown: { label: "Unknown", variant: "secondary" },
};

/** System Debug (docs/product.md §8.1): overall status, Refresh, last-checked time, the five sections. */
export default function SystemDebugPage() {
  const ready = useLoadDelay();
  const debug = useDebugAdmin(ready);
  const status = healthStatus(debug.data);
  const badge = STATUS_BADGE[status];

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" className="text-2xl font-bold">
            System Debug
          </h1>
          <p className="text-gray-600">Authentication, payment and API health.</p>
        </div>
        <Button variant="outline" onClick={() => void debug.refetch()} disabled={!ready || debug.isFetching}>
          {debug.isFetching ? "Refreshing…" : "Refresh"}
        </Button>
      </div>

      <Card role="group" aria-labelledby="overall-status">
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle id="overall-status">Overall Status</CardTitle>
          <Badge variant={badge.variant} data-testid="overall-status">
            {badge.label}
          </Badge>
        </CardHeader>
        <CardContent className="grid gap-2 text-sm">
          <p className="text-gray-600">
            Last checked: {debug.dataUpdatedAt ? <time dateTime={new Date(debug.dataUpdatedAt).toISOString()}>{formatDateTime(debug.dataUpdatedAt)}</time> : "never"}
          </p>
          {debug.data && <ProblemList data={debug.data} />}
        </CardContent>
      </Card>

      {debug.isError ? (
        <Card role="alert" className="border-red-200">
          <CardHeader>
            <CardTitle className="text-red-700">Error</CardTitle>
            <CardDescription>{debugErrorText(debug.error)}</CardDescription>
          </CardHeader>
        </Card>
      ) : debug.data ? (
        <DebugSections data={debug.data} />
      ) : (
        <Spinner className="py-12" label="Loading system status" />
      )}
    </section>
  );
}

function ProblemList({ data }: { data: DebugResponse }) {
  const problems = healthProblems(data);
  if (problems.length === 0) return <p className="text-green-700">All checks passed.</p>;
  return (
    <ul aria-label="Problems" className="list-disc pl-5 text-gray-800">
      {problems.map((p) => (
        <li key={p}>{PROBLEM_TEXT[p]}</li>
      ))}
    </ul>
  );
}

const yesNo = (ok: boolean) => <Badge variant={ok ? "success" : "destructive"}>{ok ? "Yes" : "No"}</Badge>;

function DebugSections({ data }: { data: DebugResponse }) {
  const builtIn = data.authProvider === "local";
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Section title="User Information">
        <Row label="User ID">
          <code className="break-all">{data.userId}</code>
        </Row>
        <Row label="Email">{data.email}</Row>
        <Row label="Admin Status">{yesNo(data.isAdmin)}</Row>
        <Row label="JWT Role">{data.jwtRole ?? "none"}</Row>
      </Section>

      <Section title="Authentication Provider Configuration">
        <Row label="Provider">{builtIn ? `Built-in (${data.authProviderName})` : data.authProviderName}</Row>
        <Row label="Secret Key Configured">
          {data.authSecretKeyRequired ? yesNo(data.clerkSecretKeyExists) : <Badge variant="secondary">Not required (built-in provider)</Badge>}
        </Row>
        <Row label="Key Prefix">{data.clerkKeyPrefix ? <code>{data.clerkKeyPrefix}…</code> : "—"}</Row>
        <Row label="Local User Role">{data.localUserRole ?? "no local user"}</Row>
        <Row label="Environment">{data.environment}</Row>
      </Section>

      <Section title="Payment Provider Integration (Stripe)">
        <Row label="Secret Key Configured">{yesNo(data.stripeSecretKeyExists)}</Row>
        <Row label="Key Prefix">{data.stripeKeyPrefix ? <code>{data.stripeKeyPrefix}…</code> : "—"}</Row>
        <Row label="API Connection">
          <Badge variant={data.stripeWorks ? "success" : "destructive"}>{data.stripeWorks ? "Working" : "Not working"}</Badge>
        </Row>
        <Row label="Error Message">{data.stripeError ?? "None"}</Row>
        <Row label="Checked At">{formatDateTime(data.stripeCheckedAt)}</Row>
      </Section>

      <Section title="API Configuration">
        <Row label="API URL">
          <code className="break-all">{data.apiUrl}</code>
        </Row>
        <Row label="Database">{data.database.label}</Row>
        <Row label={`Error Log Drops (${data.errorLogDrops.hours} h)`}>
          <ErrorLogDrops drops={data.errorLogDrops} />
        </Row>
      </Section>

      <StripeReconciliation facts={data.stripeReconciliation} />

      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>Raw Debug Data</CardTitle>
        </CardHeader>
        <CardContent>
          <pre aria-label="Raw debug JSON" tabIndex={0} className="max-h-96 overflow-auto rounded bg-gray-900 p-4 text-xs text-gray-100">
            {JSON.stringify(data, null, 2)}
          </pre>
        </CardContent>
      </Card>
    </div>
  );
}

const DIFFERENCE_LABELS: Record<DebugResponse["stripeReconciliation"]["differences"][number]["kind"], string> = {
  unknown_transfer: "Transfer the ledger does not know",
  amount_differs: "Amount differs",
  missing_transfer: "Paid in the ledger, not at Stripe",
};

/**
 * The daily comparison of Stripe's transfers with the ledger (docs/product.md §15.3): when it last
 * ran and what it compared, and every difference still open. A double payment would show here.
 */
function StripeReconciliation({ facts }: { facts: DebugResponse["stripeReconciliation"] }) {
  const { last, openDifferences, differences } = facts;
  return (
    <Card role="group" aria-labelledby="section-stripe-reconciliation" className="lg:col-span-2">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div>
          <CardTitle id="section-stripe-reconciliation">Stripe Reconciliation</CardTitle>
          <CardDescription>Stripe's transfers of the last days compared with the payouts the ledger records, daily.</CardDescription>
        </div>
        <Badge variant={openDifferences > 0 ? "destructive" : "success"} data-testid="stripe-differences">
          {openDifferences > 0 ? `${openDifferences} open ${openDifferences === 1 ? "difference" : "differences"}` : "No differences"}
        </Badge>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p className="text-gray-700">
          {last
            ? `Last compared ${formatDateTime(last.finishedAt ?? last.startedAt)}: ${last.runs} payout ${last.runs === 1 ? "run" : "runs"} since ${formatDateTime(last.since)}, ${last.transfers} Stripe transfers, ${last.payouts} payouts.`
            : "Not compared yet: it runs once a day when a Stripe key is configured."}
        </p>
        {last?.error && <p className="text-red-700">Stopped short: {last.error}</p>}
        {differences.length > 0 && (
          <Table aria-label="Differences between Stripe and the ledger">
            <TableHeader>
              <TableRow>
                <TableHead>Found</TableHead>
                <TableHead>Difference</TableHead>
                <TableHead>Artist</TableHead>
                <TableHead>Stripe transfer</TableHead>
                <TableHead className="text-right">At Stripe</TableHead>
                <TableHead className="text-right">In the ledger</TableHead>
                <TableHead>Details</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {differences.map((d) => (
                <TableRow key={`${d.kind}:${d.stripeTransferId ?? d.payoutId}`}>
                  <TableCell>{formatDateTime(d.foundAt)}</TableCell>
                  <TableCell>
                    <Badge variant="destructive">{DIFFERENCE_LABELS[d.kind]}</Badge>
                  </TableCell>
                  <TableCell>{d.vendorName ?? d.destination ?? "—"}</TableCell>
                  <TableCell>
                    <code className="text-xs">{d.stripeTransferId ?? "—"}</code>
                  </TableCell>
                  <TableCell className="text-right">{d.stripeAmount === null ? "—" : formatCurrency(d.stripeAmount)}</TableCell>
                  <TableCell className="text-right">{d.ledgerAmount === null ? "—" : formatCurrency(d.ledgerAmount)}</TableCell>
                  <TableCell className="max-w-md">{d.detail}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** Entries the error-log budgets dropped (docs/product.md §5.3): none, or how many per level. */
function ErrorLogDrops({ drops }: { drops: DebugResponse["errorLogDrops"] }) {
  const total = drops.error + drops.warning + drops.info;
  if (total === 0) return <span data-testid="error-log-drops">None</span>;
  return (
    <span data-testid="error-log-drops">
      <Badge variant={drops.error > 0 ? "destructive" : "warning"}>{total}</Badge> errors {drops.error}, warnings {drops.warning}, info {drops.info}
    </span>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <Card role="group" aria-labelledby={id}>
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">{children}</dl>
      </CardContent>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-gray-600">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}
