import type { ReactNode } from "react";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { Spinner } from "@web/components/ui/spinner";

/** The part of a TanStack query result the list states read. */
export interface ListQuery<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface ListStateProps<T> {
  query: ListQuery<T>;
  /** Whether an answer holds no rows (the empty text shows instead of the list). */
  isEmpty: (data: T) => boolean;
  /** Announced while loading, e.g. 'Loading vendors'. */
  loadingLabel: string;
  /** The failure's title: the card's on a screen ('Error Loading Vendors'), a prefix inside a card ('Failed to load balances'). */
  errorTitle?: string;
  /** The failure's words; the error's own message by default (docs/product.md §2.5). */
  errorMessage?: (error: Error) => string;
  emptyText: ReactNode;
  /** Inside a card or tab (compact states) rather than a screen's main list (cards of their own). */
  inline?: boolean;
  /** The list itself, given a non-empty answer. */
  children: (data: T) => ReactNode;
  /** What follows the list (its Pager), given the same answer. */
  footer?: (data: T) => ReactNode;
}

const ownMessage = (error: Error) => error.message;

/**
 * Loading, failure (with 'Try Again'), empty text, or the list: the four states every list screen
 * shows (docs/product.md §2.5), in one place.
 */
export function ListState<T>({ query, isEmpty, loadingLabel, errorTitle, errorMessage = ownMessage, emptyText, inline = false, children, footer }: ListStateProps<T>) {
  if (query.isPending) return <Spinner className={inline ? "w-full py-8" : "py-12"} label={loadingLabel} />;
  if (query.isError && query.error) {
    const message = errorMessage(query.error);
    const retry = () => void query.refetch();
    if (!inline) return <LoadErrorCard title={errorTitle ?? "Failed to load"} message={message} onRetry={retry} retrying={query.isFetching} />;
    return (
      <div role="alert" className="grid justify-items-start gap-2 py-6">
        <p className="text-red-700">{errorTitle ? `${errorTitle}: ${message}` : message}</p>
        <Button size="sm" variant="outline" onClick={retry} disabled={query.isFetching}>
          Try Again
        </Button>
      </div>
    );
  }
  const data = query.data;
  if (data === undefined) return null;
  if (isEmpty(data)) {
    if (inline) return <p className="py-6 text-center text-gray-600">{emptyText}</p>;
    return (
      <Card>
        <CardContent className="py-10 text-center text-gray-600">{emptyText}</CardContent>
      </Card>
    );
  }
  if (!footer) return <>{children(data)}</>;
  return (
    <div className="grid gap-3">
      {children(data)}
      {footer(data)}
    </div>
  );
}
