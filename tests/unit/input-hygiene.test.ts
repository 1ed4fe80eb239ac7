import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_JSON_DEPTH, nulFields, withWellFormedText } from '../../src/server/plugins/input-hygiene';

describe('jsonDepthExceeds (the raw-text check before JSON.parse)', () => {
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('allows exactly the limit and refuses one level more, for objects and arrays', () => {
    expect(jsonDepthExceeds(objects(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(objects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(arrays(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(arrays(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('counts nesting, not brackets: siblings and brackets inside strings (escaped quotes too) do not add up', () => {
    expect(jsonDepthExceeds(JSON.stringify(Array.from({ length: 1_000 }, () => ({ a: [1] }))), 3)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ text: '[[[[{{{{ \\" [[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ text: 'a "quoted" [' , inner: { deeper: [] } }), 2)).toBe(true);
  });
});

describe('nulFields', () => {
  it('walks a value far deeper than the call stack allows without overflowing (it was recursive)', () => {
    let deep: unknown = 'a\u0000b';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const [detail] = nulFields(deep, '');
    expect(detail?.message).toBe('Must not contain NUL characters');
    expect(detail?.field.split('.')).toHaveLength(100_000);
  });

  it('names every field with a NUL in document order, and does not walk raw bytes', () => {
    expect(nulFields({ a: 'x\u0000', b: ['ok', 'y\u0000'], c: { d: '\u0000' } }, '')).toEqual([
      { field: 'a', message: 'Must not contain NUL characters' },
      { field: 'b.1', message: 'Must not contain NUL characters' },
      { field: 'c.d', message: 'Must not contain NUL characters' },
    ]);
    expect(nulFields(Buffer.from([0, 0, 0]), '')).toEqual([]);
    expect(nulFields({ lang: '\u0000' }, 'query')).toEqual([{ field: 'query.lang', message: 'Must not contain NUL characters' }]);
  });
});

describe('withWellFormedText', () => {
  it('replaces each lone surrogate in strings and keys, at any depth, and keeps pairs and other values', () => {
    const parsed = JSON.parse('{"name":"a\\ud83d b \\ud83d\\ude00","items":[{"title":"\\ude00x","n":1,"ok":true,"none":null}],"texts":{"de\\udc00":"Halle"}}') as unknown;
    expect(withWellFormedText(parsed)).toEqual({ name: 'a\uFFFD b 😀', items: [{ title: '\uFFFDx', n: 1, ok: true, none: null }], texts: { 'de\uFFFD': 'Halle' } });
    expect(withWellFormedText('\ud800')).toBe('\uFFFD');
    expect(withWellFormedText(7)).toBe(7);
    // A mended key does not overwrite one sent with U+FFFD itself.
    expect(withWellFormedText(JSON.parse('{"\\ufffd":2,"\\ud800":1}'))).toEqual({ '\uFFFD': 2 });
  });
});

