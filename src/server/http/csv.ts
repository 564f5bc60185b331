/**
 * The server's one CSV writer (RFC 4180), for every export: members, a group's members, a
 * member's posts, the recorded errors.
 *
 * A number is written as the number it is (`-3`, not `'-3`). A text cell that a spreadsheet
 * would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets
 * a leading `'`, so opening the file never runs it; that holds for a text that looks like a
 * number too (`"-3"` as text is a member's own input, not a count of ours).
 */

/** What a cell may hold: null and undefined are an empty cell. */
export type CsvValue = string | number | bigint | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field: numbers as they are; text defused against formulas, quoted when it holds a quote, comma or line break. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  const s = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV row with its CRLF line end. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
