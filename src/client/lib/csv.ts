/**
 * CSV as German Excel reads and writes it: `;` between fields, CRLF between rows, a UTF-8 byte order mark so
 * umlauts survive a double-click open, fields quoted with `"` when they contain the separator, a quote or a line
 * break (RFC 4180 quoting, `""` for a quote inside). Parsing accepts `,` too when the header row has no `;`
 * (a file saved by English Excel), LF or CRLF, and a missing BOM.
 */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';

function quote(field: string, separator: string): string {
  return /["\r\n]/.test(field) || field.includes(separator) ? `"${field.replace(/"/g, '""')}"` : field;
}

/** Rows of fields → the file's text, BOM first. */
export function serializeCsv(rows: readonly (readonly string[])[], separator = CSV_SEPARATOR): string {
  return CSV_BOM + rows.map((row) => row.map((field) => quote(field, separator)).join(separator)).join('\r\n') + '\r\n';
}

/** Which separator a file uses: `;` unless the first line has none and has a `,`. */
export function detectSeparator(text: string): string {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return !firstLine.includes(';') && firstLine.includes(',') ? ',' : ';';
}

export class CsvSyntaxError extends Error {
  constructor(readonly line: number) {
    super(`Unterminated quoted field starting on line ${line}`);
  }
}

/** The file's text → rows of fields. Blank lines are skipped; an unterminated quote throws CsvSyntaxError. */
export function parseCsv(text: string, separator = detectSeparator(text)): string[][] {
  const source = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let quoteLine = 1;
  let fieldStarted = false;
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
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
      row.push(field);
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
  return rows;
}
