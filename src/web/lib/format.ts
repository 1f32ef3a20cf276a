/** Formatting in one place (docs/product.md §2.5): US dollars, dates, relative-time buckets, level colours. */

const currencyFormatter = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const dateFormatter = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });
const dateTimeFormatter = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

type DateInput = Date | string | number;

function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

/** Dollars (the API speaks dollars where the screens show dollars), e.g. 1234.5 -> "$1,234.50". */
export function formatCurrency(amount: number): string {
  return currencyFormatter.format(Number.isFinite(amount) ? amount : 0);
}

/** A calendar date such as "Jan 5, 2026"; invalid input gives an em dash instead of "Invalid Date". */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  return Number.isNaN(date.getTime()) ? "—" : dateFormatter.format(date);
}

export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  return Number.isNaN(date.getTime()) ? "—" : dateTimeFormatter.format(date);
}

/**
 * docs/product.md §2.5 buckets: under 1 hour 'Just now', under 24 hours 'Nh ago', under 7 days 'Nd ago',
 * otherwise the date. `now` is a parameter so the buckets can be tested without a real clock.
 */
export function formatRelativeTime(value: DateInput, now: DateInput = new Date()): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return "—";
  const diff = toDate(now).getTime() - date.getTime();
  if (diff < HOUR_MS) return "Just now";
  if (diff < DAY_MS) return `${Math.floor(diff / HOUR_MS)}h ago`;
  if (diff < 7 * DAY_MS) return `${Math.floor(diff / DAY_MS)}d ago`;
  return formatDate(date);
}

export type LogLevel = "error" | "warning" | "info";

/** Error red, warning yellow, info blue (docs/product.md §2.5). */
export function levelColorClasses(level: LogLevel | string): string {
  switch (level) {
    case "error":
      return "bg-red-100 text-red-800 border-red-200";
    case "warning":
      return "bg-yellow-100 text-yellow-800 border-yellow-200";
    case "info":
      return "bg-blue-100 text-blue-800 border-blue-200";
    default:
      return "bg-gray-100 text-gray-800 border-gray-200";
  }
}
