import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "./card";

export interface StatCardProps {
  title: string;
  value: string;
  description?: string;
  /** Optional extra line under the description (e.g. a trend). */
  footer?: ReactNode;
  /** The value's data-testid ('stat-value' unless a screen names its figures). */
  valueTestId?: string;
}

/** One figure with its title and description: the cards of the dashboard, analytics, vendor and financials screens. */
export function StatCard({ title, value, description, footer, valueTestId = "stat-value" }: StatCardProps) {
  return (
    <Card aria-label={title} role="group">
      <CardHeader className="pb-2">
        <CardTitle className="text-sm font-medium text-gray-600">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold" data-testid={valueTestId}>
          {value}
        </p>
        {description && <p className="text-xs text-gray-600">{description}</p>}
        {footer}
      </CardContent>
    </Card>
  );
}
