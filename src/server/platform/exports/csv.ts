/**
 * One CSV line (RFC 4180: quoted when needed, quotes doubled, CRLF). A cell that a spreadsheet
 * would run as a formula (starting with =, +, -, @, or a tab or carriage return before them) gets
 * a leading apostrophe, so opening an export never executes what a vendor or user typed.
 */
export function csvLine(cells: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  // Numbers are written as numbers: a negative amount stays a number, not a neutralised text.
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}
