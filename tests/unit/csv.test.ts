import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, CsvSyntaxError, decodeCsv, detectSeparator, parseCsv, serializeCsv } from '../../src/client/lib/csv';

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
        // A row of one empty field is a blank line, which the parser skips by design.
        const expected = rows.filter((row) => row.some((field) => field !== '') || row.length > 1);
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
