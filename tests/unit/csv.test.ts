import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, CsvSyntaxError, decodeCsv, detectSeparator, parseCsv, parseCsvTable, serializeCsv } from '../../src/client/lib/csv';

describe('CSV for German Excel', () => {
  it('writes a BOM, semicolons and CRLF, quoting only what needs it', () => {
    const text = serializeCsv([
      ['Name', 'Maß'],
      ['Presse; groß', 'sagt "hallo"'],
      ['zwei\nZeilen', ''],
    ]);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text).toBe(`${CSV_BOM}Name;Maß\r\n"Presse; groß";"sagt ""hallo"""\r\n"zwei\nZeilen";\r\n`);
  });

  it('round-trips separators, quotes, line breaks, umlauts and empty fields', () => {
    const rows = [
      ['nodeid', 'name', 'beschreibung', 'leer'],
      ['1', 'Hydraulikpresse "HP 3"', 'a;b;c', ''],
      ['2', 'Fräse', 'Zeile 1\r\nZeile 2', ''],
      ['3', '', '', 'x'],
    ];
    expect(parseCsv(serializeCsv(rows))).toEqual(rows);
  });

  it('reads comma files from English Excel, LF endings and no BOM', () => {
    expect(detectSeparator('a,b\n1,2')).toBe(',');
    expect(detectSeparator('a;b,c\n')).toBe(';');
    expect(parseCsv('a,b\n"1,5",2\n')).toEqual([
      ['a', 'b'],
      ['1,5', '2'],
    ]);
  });

  it('skips blank lines and keeps a trailing empty field', () => {
    expect(parseCsv('a;b\r\n\r\n1;\r\n')).toEqual([
      ['a', 'b'],
      ['1', ''],
    ]);
  });

  it("skips Excel's emptied rows (only separators) and numbers every row as Excel shows it", () => {
    // Excel writes a row the user emptied as `;;;`; a blank line counts as a row too, a line break in quotes does not.
    const table = parseCsvTable('a;b;c\r\n1;2;3\r\n;;\r\n\r\n ; ;\r\n"x\r\ny";5;6\r\n7;8;9\r\n;;\r\n');
    expect(table.rows).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
      ['x\r\ny', '5', '6'],
      ['7', '8', '9'],
    ]);
    expect(table.rowNumbers).toEqual([1, 2, 6, 7]);
    expect(parseCsv('a;b\r\n;\r\n1;2\r\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it("reads Excel's separator hint `sep=;` / `sep=,` as the separator, not as a row", () => {
    expect(detectSeparator('sep=;\r\nName,Ort;PLZ\r\n')).toBe(';');
    expect(detectSeparator(`${CSV_BOM}SEP=,\nName;Ort,PLZ\n`)).toBe(',');
    const table = parseCsvTable('sep=,\r\nName,Ort\r\n"Presse; groß",Görlitz\r\n');
    expect(table.rows).toEqual([
      ['Name', 'Ort'],
      ['Presse; groß', 'Görlitz'],
    ]);
    // Excel does not show the hint: the header is its row 1.
    expect(table.rowNumbers).toEqual([1, 2]);
    expect(parseCsv('sep=;\nName;Ort\nA;B\n')).toEqual([
      ['Name', 'Ort'],
      ['A', 'B'],
    ]);
    // Only a first line of exactly that form is a hint.
    expect(parseCsv('sep=;x;y\n1;2;3\n')).toEqual([
      ['sep=', 'x', 'y'],
      ['1', '2', '3'],
    ]);
  });

  it('names the line of an unterminated quote', () => {
    expect(() => parseCsv('a;b\n1;"offen\n2;3')).toThrow(CsvSyntaxError);
    try {
      parseCsv('a;b\n1;"offen\n2;3');
    } catch (error) {
      expect((error as CsvSyntaxError).line).toBe(2);
    }
  });

  it('neutralises formulas: a cell starting with =, +, -, @, a tab or a carriage return opens in Excel as text', () => {
    const dangerous = ['=HYPERLINK("http://evil.example","klick")', '+1+cmd|\' /C calc\'!A0', '-2+3', '@SUM(A1:A2)', '\t=1+1', '\r=1+1'];
    const text = serializeCsv([['titel'], ...dangerous.map((value) => [value])]);
    const cells = text.replace(CSV_BOM, '').split('\r\n').slice(1, -1).map((cell) => cell.replace(/^"/, ''));
    for (const cell of cells) expect(cell, cell).toMatch(/^'[=+\-@\t\r]/);
    // The import reads back exactly what was exported.
    expect(parseCsv(text).slice(1).map(([value]) => value)).toEqual(dangerous);
  });

  it('leaves plain numbers and ordinary text as they are', () => {
    expect(serializeCsv([['-5', '-3,25', '12', 'Presse', "'zitiert"]])).toBe(`${CSV_BOM}-5;-3,25;12;Presse;'zitiert\r\n`);
  });

  it('round-trips any text, also text that looks like a formula or an escaped one', () => {
    const cell = fc.oneof(fc.string(), fc.constantFrom("'=1", "''+x", '=1', '-', '@', "'", "'-5", '-5'));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        // A row without text in any field is a blank row (Excel's `;;;`), which the parser skips by design.
        const expected = rows.filter((row) => row.some((field) => field.trim() !== ''));
        expect(parseCsv(serializeCsv(expected))).toEqual(expected);
      }),
    );
  });

  it('reads the file German Excel saves as "CSV (Trennzeichen-getrennt)" (Windows-1252) with its umlauts, and UTF-8 with or without BOM', () => {
    const text = 'Name;Kostenstelle;Höhe (mm)\r\nGrößenmeßgerät Ölpumpe – Linie 2;Kühlung;1.250\r\n';
    const expected = [
      ['Name', 'Kostenstelle', 'Höhe (mm)'],
      ['Größenmeßgerät Ölpumpe – Linie 2', 'Kühlung', '1.250'],
    ];
    // Windows-1252: one byte per character (ö = 0xF6, ß = 0xDF, – = 0x96), never valid UTF-8 here.
    const ansi = Uint8Array.from([...text].map((char) => (char === '–' ? 0x96 : char.charCodeAt(0))));
    expect(ansi.includes(0xf6) && ansi.includes(0x96)).toBe(true);
    expect(parseCsv(decodeCsv(ansi))).toEqual(expected);
    expect(parseCsv(decodeCsv(new TextEncoder().encode(text)))).toEqual(expected);
    expect(parseCsv(decodeCsv(new TextEncoder().encode(CSV_BOM + text)))).toEqual(expected);
    // The app's own export comes back unchanged.
    expect(parseCsv(decodeCsv(new TextEncoder().encode(serializeCsv(expected))))).toEqual(expected);
  });
});
