// Every CSV compsim reads or writes: csv-stringify and csv-parse with one set of options, and the spreadsheet-formula escape on text cells.
import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** A cell as compsim writes it: null is an empty cell, numbers and booleans as JavaScript prints them. */
export type CsvCell = string | number | boolean | null;

/** A CSV text compsim cannot read: the message names the file and the line. */
export class CsvReadError extends Error {}

/** A cell a spreadsheet would run as a formula: it starts with `=`, `+`, `-`, `@`, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number (`-5`, `+1.5`, `2e-7`): a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
/** The escape: a leading apostrophe, which spreadsheets show as text and compsim's reader removes. */
const ESCAPE = "'";

/**
 * A text cell made safe to open in a spreadsheet: one that would start a formula gets a leading
 * apostrophe (OWASP's advice for CSV injection), and so does one that already starts with an
 * apostrophe, so {@link unescapeCell} gives every text back exactly.
 */
export function escapeCell(text: string): string {
  return text.startsWith(ESCAPE) || (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) ? `${ESCAPE}${text}` : text;
}

/** The text {@link escapeCell} was given: one leading apostrophe removed. */
export function unescapeCell(cell: string): string {
  return cell.startsWith(ESCAPE) ? cell.slice(1) : cell;
}

const cellText = (v: CsvCell): string => (v === null ? '' : typeof v === 'string' ? escapeCell(v) : String(v));

/**
 * Rows as CSV text, header first, one `\n` after every record. Cells holding a comma, a quote or a
 * line break are quoted by csv-stringify; so are cells with space at either end (the reader trims
 * unquoted cells) and cells starting with `#` (the reader skips lines starting with it).
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const records = [header.map(cellText), ...rows.map((r) => r.map(cellText))];
  // A one-column record of an empty cell would be an empty line, which the reader skips.
  const quotedMatch = header.length === 1 ? [/^\s|\s$/, /^#/, /\r/, /^$/] : [/^\s|\s$/, /^#/, /\r/];
  return stringify(records, { record_delimiter: 'unix', quoted_match: quotedMatch });
}

/** Records read back, and the line each one ends on (found only when asked: for messages). */
export interface CsvRecords {
  records: string[][];
  /** The line record `index` ends on (1-based). */
  lineOf(index: number): number;
}

/** Options of {@link parseCsv}. */
export interface ParseCsvOptions {
  /** Longest record, in characters (a runaway quote would otherwise read the whole file as one cell). */
  maxRecordChars?: number;
}

/** The reading rules: quoted cells kept as they are, unquoted ones trimmed, empty and `#` lines skipped, a byte-order mark ignored, records of any length. */
function readOptions(o: ParseCsvOptions) {
  return {
    bom: true, trim: true, comment: '#', comment_no_infix: true, skip_empty_lines: true, relax_column_count: true, max_record_size: o.maxRecordChars ?? 1_000_000,
  } as const;
}

/**
 * Reads CSV text as records of text cells (every cell through {@link unescapeCell}): quoted cells
 * keep commas, quotes, line breaks and spaces; unquoted cells are trimmed; empty lines and lines
 * starting with `#` are skipped; a byte-order mark is ignored. Records may differ in length (the
 * caller checks them against its header). Malformed text throws a {@link CsvReadError} naming
 * `file` and the line. Line numbers cost a second parse, so they are worked out only when asked.
 */
export function parseCsv(text: string, file: string, options: ParseCsvOptions = {}): CsvRecords {
  let records: string[][];
  try {
    records = parse(text, readOptions(options)) as string[][];
  } catch (err) {
    if (err instanceof CsvError) throw new CsvReadError(`${file}: not valid CSV: ${err.message}`);
    throw err;
  }
  for (const record of records) {
    for (let i = 0; i < record.length; i++) if (record[i]!.startsWith("'")) record[i] = unescapeCell(record[i]!);
  }
  let lines: number[] | undefined;
  return {
    records,
    lineOf: (index) => {
      lines ??= (parse(text, { ...readOptions(options), info: true }) as unknown as { info: { lines: number } }[]).map((r) => r.info.lines);
      return lines[index] ?? 0;
    },
  };
}
