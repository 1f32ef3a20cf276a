/** Formatting in one place (docs/product.md §2.5): US dollars, counts, dates, relative-time buckets, level colours. */

const currencyFormatter = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const countFormatter = new Intl.NumberFormat("en-US");
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

/**
 * The one money display: dollars, e.g. 1234.5 -> "$1,234.50". The API turns the database's integer
 * cents into dollars (ARCHITECTURE.md, invariants), so the web never divides by 100 itself.
 */
export function formatCurrency(amount: number): string {
  return currencyFormatter.format(Number.isFinite(amount) ? amount : 0);
}

/** A sum of dollar amounts rounded to whole cents (each amount is exact cents; their float sum may not be). */
export function roundCents(dollars: number): number {
  return Math.round(dollars * 100) / 100;
}

/** A count with thousands separators, e.g. 50000 -> "50,000". */
export function formatCount(n: number): string {
  return countFormatter.format(n);
}

/** A count and its noun, e.g. countOf(1, "vendor") -> "1 vendor", countOf(3, "staff member") -> "3 staff members". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
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
