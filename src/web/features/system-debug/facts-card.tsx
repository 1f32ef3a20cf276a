import type { ReactNode } from "react";
import { Badge } from "@web/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";

/** A titled card of facts, named by its title (a group, e.g. 'User Information'), with a label and value a row. */
export function FactsCard({ title, children }: { title: string; children: ReactNode }) {
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

/** One fact of a FactsCard; `code`: a value to read as typed (an id, a URL), broken anywhere to fit. */
export function Fact({ label, code = false, children }: { label: string; code?: boolean; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-gray-600">{label}</dt>
      <dd className="min-w-0">{code ? <code className="break-all">{children}</code> : children}</dd>
    </>
  );
}

/** 'Yes' (green) or 'No' (red). */
export function YesNo({ ok }: { ok: boolean }) {
  return <Badge variant={ok ? "success" : "destructive"}>{ok ? "Yes" : "No"}</Badge>;
}

/** A key's first characters ('sk_test…'), or '—' without a key. */
export function KeyPrefix({ prefix }: { prefix: string | null }) {
  return prefix ? <code>{prefix}…</code> : <>—</>;
}
