import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../main/service/api-types';
import { ApiError } from '../../main/service/errors';
import { evaluateText, type MacroScope } from '../../main/service/templates/macro-eval';
import { formatNow } from '../../main/service/templates/macro-functions';
import { expandTemplate } from '../../main/service/templates/template-expand';

const NOW = '2026-03-05T07:08:09.123456';

function scope(input: JsonObject, macros: Record<string, string> = {}, item?: { value: Json; index: number }): MacroScope {
  return {
    field: 'description',
    input,
    item,
    self: () => undefined,
    macro: (name) => macros[name],
    where: 'sys.hcs',
    now: NOW,
    budget: { steps: 0 },
    macroStack: [],
  };
}

const run = (text: string, input: JsonObject = {}, macros: Record<string, string> = {}): Json => evaluateText(text, scope(input, macros));

function problem(action: () => unknown): ApiError {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('macro text', () => {
  it('keeps the JSON type of a text that is one macro, and joins mixed text into a string', () => {
    const input = { n: 7, on: true, none: null, list: ['a', 'b'], obj: { k: 'v' } };
    expect(run('{{ input.n }}', input)).toBe(7);
    expect(run('{{input.on}}', input)).toBe(true);
    expect(run('{{ input.none }}', input)).toBeNull();
    expect(run('{{ input.list }}', input)).toEqual(['a', 'b']);
    expect(run('n={{ input.n }} on={{ input.on }} none={{ input.none }} list={{ input.list }}', input)).toBe(
      'n=7 on=true none= list=["a","b"]',
    );
    expect(run(' {{ input.n }}', input)).toBe(' 7');
    expect(run('no macros } here }}', input)).toBe('no macros } here }}');
  });

  it('reads 0-based indexes and nested names', () => {
    const input = { lines: [{ pattern: '+1' }, { pattern: '+2' }] };
    expect(run('{{ input.lines.1.pattern }}', input)).toBe('+2');
    expect(problem(() => run('{{ input.lines.2.pattern }}', input)).message).toMatch(/no value at input\.lines\.2\.pattern/);
    expect(problem(() => run('{{ input.lines.first }}', input)).message).toMatch(
      /bad path: input\.lines is a list, so 'first' must be a 0-based index/,
    );
  });

  it('offers string functions, nested with ( ), with quoted literals', () => {
    const input = { name: '  Marie Curie ', dn: '+33140001234' };
    expect(run('{{ fn.upper input.name }}', input)).toBe('  MARIE CURIE ');
    expect(run('{{ fn.lower (fn.trim input.name) }}', input)).toBe('marie curie');
    expect(run('{{ fn.replace (fn.trim input.name) " " "." }}', input)).toBe('Marie.Curie');
    expect(run('{{ fn.substring input.dn 1 3 }}', input)).toBe('33');
    expect(run('{{ fn.substring input.dn -4 }}', input)).toBe('1234');
    expect(run('{{ fn.concat "x" 1 true (fn.substring input.dn -2) }}', input)).toBe('x1true34');
    expect(run('{{ fn.concat "say \\"hi\\"" \' it\' }}', input)).toBe('say "hi" it');
    expect(run('{{ fn.default input.missing input.none "" "fallback" }}', { none: null })).toBe('fallback');
    expect(run('{{ fn.default input.missing false }}', {})).toBe(false);
    expect(run('{{ fn.default input.missing }}', {})).toBeNull();
    expect(run('{{ fn.default macro.nosuch "none" }}', {})).toBe('none');
  });

  it('refuses wrong arities, non-numbers and syntax it does not know', () => {
    expect(problem(() => run('{{ fn.upper }}')).message).toMatch(/fn\.upper takes 1 argument, not 0/);
    expect(problem(() => run('{{ fn.substring "abc" "x" }}')).message).toMatch(/the start must be a whole number, not x/);
    expect(problem(() => run('{{ fn.upper fn.lower "A" }}')).message).toMatch(/put \( \) around fn\.lower/);
    expect(problem(() => run('{{ input.a input.b }}', { a: 1, b: 2 })).message).toMatch(/unexpected text/);
    expect(problem(() => run('{{ }}')).message).toMatch(/the macro is empty/);
    expect(problem(() => run('{{ pattern }}')).message).toMatch(/pattern is not a macro/);
    expect(problem(() => run('{{ fn.concat "open }}')).message).toMatch(/has no closing "/);
    expect(problem(() => run('{{ (fn.upper "a" }}')).message).toMatch(/'\(' has no matching '\)'/);
  });

  it('expands data/Macros whose text holds macros', () => {
    const macros = { a: '{{ macro.b }}-{{ input.x }}', b: 'B', t: '{{ fn.default input.flag true }}' };
    expect(run('{{ macro.a }}', { x: 'X' }, macros)).toBe('B-X');
    expect(run('{{ macro.t }}', {}, macros)).toBe(true);
  });

  it('bounds the work of macros that multiply each other', () => {
    const macros: Record<string, string> = { m0: 'xxxxxxxxxx' };
    for (let i = 1; i <= 20; i += 1) macros[`m${i}`] = `{{ macro.m${i - 1} }}{{ macro.m${i - 1} }}`;
    expect(problem(() => run('{{ macro.m20 }}', {}, macros)).message).toMatch(/more than 100000 steps|longer than 100000 characters/);
  });
});

describe('fn.now', () => {
  it('formats the service clock (UTC) with strftime codes', () => {
    expect(formatNow(NOW, '%Y/%m/%d %H:%M:%S.%f day %j of %y, 100%%')).toBe('2026/03/05 07:08:09.123456 day 064 of 26, 100%');
    expect(run('{{ fn.now }}')).toBe('2026-03-05T07:08:09');
    expect(run('{{ fn.now "%d.%m.%Y" }}')).toBe('05.03.2026');
  });
});

describe('template expansion', () => {
  const options = (input: JsonObject, foreach: string | null = null) => ({
    input,
    foreach,
    macro: () => undefined,
    where: 'sys',
    now: NOW,
  });

  it('resolves self references lazily in any order, through nested objects', () => {
    const values = expandTemplate(
      {
        description: '{{ self.callForwardAll.destination }} via {{ self.usage }}',
        callForwardAll: { destination: '{{ input.pattern }}0' },
        usage: 'Device',
      },
      options({ pattern: '+1' }),
    );
    expect(values).toEqual({ description: '+10 via Device', callForwardAll: { destination: '+10' }, usage: 'Device' });
  });

  it('builds lists and merged blocks per foreach element; a missing list builds nothing', () => {
    const template = {
      'lines[]': { pattern: '{{ item.dn }}', position: '{{ index }}' },
      __foreach__: { 'cf{{ item.kind }}': { to: '{{ item.dn }}' } },
    };
    const values = expandTemplate(
      template,
      options(
        {
          rows: [
            { dn: '1', kind: 'A' },
            { dn: '2', kind: 'B' },
          ],
        },
        'rows',
      ),
    );
    expect(values).toEqual({
      lines: [
        { pattern: '1', position: 0 },
        { pattern: '2', position: 1 },
      ],
      cfA: { to: '1' },
      cfB: { to: '2' },
    });
    expect(expandTemplate(template, options({}, 'rows'))).toEqual({ lines: [] });
  });

  it('refuses foreach entries without a foreach field, nested foreach, and keys that give no name', () => {
    expect(problem(() => expandTemplate({ 'x[]': 'a' }, options({}))).details).toEqual([
      { field: 'x[]', message: 'the template uses a foreach entry but names no foreach field' },
    ]);
    expect(problem(() => expandTemplate({ 'x[]': { 'y[]': 'a' } }, options({ r: [1] }, 'r'))).message).toMatch(
      /foreach entries do not nest/,
    );
    expect(problem(() => expandTemplate({ '{{ input.n }}': 'a' }, options({ n: 3 }))).message).toMatch(
      /the key must give a field name, not 3/,
    );
  });
});
