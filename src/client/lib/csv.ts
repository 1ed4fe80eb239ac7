/**
 * CSV as German Excel reads and writes it: `;` between fields, CRLF between rows, a UTF-8 byte order mark so
 * umlauts survive a double-click open, fields quoted with `"` when they contain the separator, a quote or a line
 * break (RFC 4180 quoting, `""` for a quote inside). Parsing accepts `,` too when the header row has no `;`
 * (a file saved by English Excel), LF or CRLF, a missing BOM, and Windows-1252 bytes (`decodeCsv`). Two more
 * things Excel files carry are read as Excel reads them: a first line `sep=;` (or `sep=,`), Excel's hint which
 * separator the file uses, names the separator and is no row; and a row whose fields are all empty (`;;;;`, what
 * Excel writes for a row that was emptied, or a blank line) is skipped like a blank line — before, it was a
 * machine "without name, brand, type …" whose errors blocked the whole import. Rows keep the number a spreadsheet
 * shows for them (`parseCsvTable`), skipped rows counted, so an error names the row the user sees in Excel.
 *
 * Formula injection: Excel runs a cell that starts with `=`, `+`, `-`, `@` (or a tab or carriage return before
 * one) as a formula, so a machine named `=HYPERLINK(…)` would become a live link or worse in the export. Such a
 * field is written with a leading `'` (Excel's "this is text"); plain numbers like `-5` stay numbers. Reading
 * takes one `'` off such a field again, so an export imports back unchanged (also a text that already started
 * with `'=`: it gets one more quote on the way out).
 */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';

const FORMULA_START = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(?:[.,]\d+)?$/;

function neutralise(field: string): string {
  return FORMULA_START.test(field) && !PLAIN_NUMBER.test(field) ? `'${field}` : field;
}

function restore(field: string): string {
  return ESCAPED_FORMULA.test(field) ? field.slice(1) : field;
}

function quote(field: string, separator: string): string {
  return /["\r\n]/.test(field) || field.includes(separator) ? `"${field.replace(/"/g, '""')}"` : field;
}

/** Rows of fields → the file's text, BOM first. */
export function serializeCsv(rows: readonly (readonly string[])[], separator = CSV_SEPARATOR): string {
  return CSV_BOM + rows.map((row) => row.map((field) => quote(neutralise(field), separator)).join(separator)).join('\r\n') + '\r\n';
}

/**
 * A CSV file's bytes → its text. UTF-8 (with or without BOM) when the bytes are valid UTF-8; otherwise
 * Windows-1252, the "ANSI" encoding German Excel's "CSV (Trennzeichen-getrennt)" writes: read as UTF-8, its
 * umlauts became U+FFFD and an import silently stored "Gr��enme�ger�t". Every byte sequence is valid
 * Windows-1252 (the WHATWG decoder maps each byte), so a file is never refused for its encoding.
 */
export function decodeCsv(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(view);
  } catch {
    return decodeWindows1252(view);
  }
}

/**
 * Windows-1252 as the WHATWG Encoding Standard maps it: Latin-1, except 0x80–0x9F, which carry €, „, –, … (five of
 * them unassigned, kept as the C1 control of the same number). Written out rather than `new TextDecoder('windows-1252')`:
 * Node's decoder reads that label as plain Latin-1 (an en dash came out as U+0096), so the tests would not check
 * what the browsers do.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80]! : String.fromCharCode(byte);
  return text;
}

/**
 * Whether bytes are no text file at all (a photo, a PDF, an Excel workbook chosen by mistake): a NUL byte, or more
 * than one in twenty bytes a control character that text does not use (tab, line feed, carriage return and form feed
 * aside), within the first 8 KB. Text in UTF-8 or Windows-1252 has neither, so a real CSV is never refused for it.
 */
export function looksBinary(bytes: ArrayBuffer | Uint8Array): boolean {
  const view = (bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).subarray(0, 8192);
  let control = 0;
  for (const byte of view) {
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) control += 1;
  }
  return control * 20 > view.length;
}

/** Excel's separator hint, a first line `sep=;`: the separator, and the line's length with its line break. */
const SEPARATOR_HINT = /^sep=([^\r\n])[^\S\r\n]*(?:\r\n|\n|\r|$)/i;

/** Which separator a file uses: the one its `sep=` line names, else `;` unless the first line has none and has a `,`. */
export function detectSeparator(text: string): string {
  const source = text.replace(/^\uFEFF/, '');
  const hint = SEPARATOR_HINT.exec(source);
  if (hint) return hint[1]!;
  const firstLine = source.split(/\r?\n/, 1)[0] ?? '';
  return !firstLine.includes(';') && firstLine.includes(',') ? ',' : ';';
}

export class CsvSyntaxError extends Error {
  constructor(readonly line: number) {
    super(`Unterminated quoted field starting on line ${line}`);
  }
}

/** Rows of a file, and for each the number a spreadsheet shows for it (header = 1; skipped blank rows counted). */
export interface CsvTable {
  rows: string[][];
  rowNumbers: number[];
}

/** The file's text → rows of fields. Blank rows are skipped; an unterminated quote throws CsvSyntaxError. */
export function parseCsv(text: string, separator = detectSeparator(text)): string[][] {
  return parseCsvTable(text, separator).rows;
}

/** `parseCsv` with each row's number as Excel shows it: blank rows and a line break inside quotes count as Excel counts them. */
export function parseCsvTable(text: string, separator = detectSeparator(text)): CsvTable {
  let source = text.replace(/^\uFEFF/, '');
  const hint = SEPARATOR_HINT.exec(source);
  // Excel reads the hint and does not show it as a row; neither does the import.
  let line = 1;
  if (hint) {
    source = source.slice(hint[0].length);
    line = 2;
  }
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  let rowNumber = 1;
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let quoteLine = 1;
  let fieldStarted = false;
  const endRow = () => {
    row.push(restore(field));
    if (row.some((cell) => cell.trim() !== '')) {
      rows.push(row);
      rowNumbers.push(rowNumber);
    }
    rowNumber += 1;
    row = [];
    field = '';
    fieldStarted = false;
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
      quoteLine = line;
    } else if (char === separator) {
      row.push(restore(field));
      field = '';
      fieldStarted = false;
    } else if (char === '\r' && source[i + 1] === '\n') {
      // handled with the \n
    } else if (char === '\n' || char === '\r') {
      endRow();
      line++;
    } else {
      field += char;
      fieldStarted = true;
    }
  }
  if (quoted) throw new CsvSyntaxError(quoteLine);
  if (field !== '' || row.length > 0) endRow();
  return { rows, rowNumbers };
}
