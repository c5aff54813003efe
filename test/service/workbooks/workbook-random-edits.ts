import type { WorkbookCell, WorkbookEdit, WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { ACME, LONDON, PARIS } from '../helpers';

/**
 * Random edit sequences for the differential tests: a seeded generator (the same seed, the same
 * sequence, so a failure can be replayed) and edits drawn from values that make the rules fire:
 * numbers taken in the inventory or by another row, numeric cells in text columns, unknown
 * devices and nodes, bad actions, templates that exist or not.
 */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES: Record<string, WorkbookCell[]> = {
  'Hierarchy Node': [PARIS, PARIS, LONDON, ACME, `${ACME}.Nowhere`, 'sys.elsewhere', null],
  summary_device: ['SEP00AA00000001', 'SEP00AA00000002', 'SEP00AA00000003', 'SEP00AA00001003', 'SEPNOSUCH0001', null],
  'CFT Template': ['Acme Line Defaults', 'No Such Template', null],
  pattern: ['+33140001050', '+33140001051', '+33140001052', '+33140001005', '+33140001087', 33140001053, 'abc', ' +33140001054', null],
  alertingName: ['Alice', 'Bruno', 'x'.repeat(60), ' ', null],
  Action: ['add', 'add', 'modify', 'delete', 'bogus', null],
  'Unique Identifier (pkid)': ['not-a-pkid', null],
  routePartitionName: ['Paris-PT', 'London-PT', null],
};

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

const valuesFor = (field: string | null): WorkbookCell[] => (field && VALUES[field]) || ['free text', null];

/** A tab-separated cell as Excel copies it. */
const tsvText = (cell: WorkbookCell): string => (cell === null ? '' : typeof cell === 'object' ? '' : String(cell));

/** One random edit (or undo/redo) of the workbook as it now stands. */
export function randomEdit(random: () => number, info: WorkbookInfo, rowIds: number[][]): WorkbookEdit | 'undo' | 'redo' {
  const sheets = info.sheets.filter((sheet) => !sheet.skipped);
  const sheet = pick(random, sheets);
  const ids = rowIds[sheet.index] ?? [];
  const columns = sheet.columns;
  const roll = random();
  if (roll < 0.1 && info.can_undo) return 'undo';
  if (roll < 0.15 && info.can_redo) return 'redo';
  if (ids.length === 0 || roll < 0.2) {
    const column = pick(random, columns);
    return {
      op: 'insert_rows',
      sheet: sheet.index,
      at: Math.floor(random() * (ids.length + 1)),
      rows: [{ [column.id]: pick(random, valuesFor(column.field)) }],
    };
  }
  if (roll < 0.25 && ids.length > 1) return { op: 'delete_rows', sheet: sheet.index, row_ids: [pick(random, ids)] };
  if (roll < 0.32) {
    const top = Math.floor(random() * ids.length);
    const left = Math.floor(random() * Math.max(1, columns.length - 1));
    const block = [0, 1].map((_down) =>
      [0, 1].filter((right) => left + right < columns.length).map((right) => tsvText(pick(random, valuesFor(columns[left + right].field)))),
    );
    return {
      op: 'paste',
      sheet: sheet.index,
      row_id: ids[top],
      column_id: columns[left].id,
      tsv: block.map((line) => line.join('\t')).join('\r\n'),
    };
  }
  if (roll < 0.36 && ids.length > 2) {
    const from = Math.floor(random() * (ids.length - 1));
    return {
      op: 'fill_down',
      sheet: sheet.index,
      column_ids: [pick(random, columns).id],
      from_index: from,
      to_index: Math.min(ids.length - 1, from + 2),
    };
  }
  if (roll < 0.4)
    return {
      op: 'replace',
      find: pick(random, ['1050', 'Paris', 'SEP00AA0000000', '^\\+']),
      replace: pick(random, ['1051', 'London', 'SEP00AA0000100', '']),
      regex: random() < 0.5,
      within: { sheet: sheet.index },
    };
  if (roll < 0.42 && columns.length > 1)
    return { op: 'move_column', sheet: sheet.index, column_id: pick(random, columns).id, to: Math.floor(random() * columns.length) };
  const cells = Array.from({ length: 1 + Math.floor(random() * 2) }, () => {
    const column = pick(random, columns);
    return { row_id: pick(random, ids), column_id: column.id, value: pick(random, valuesFor(column.field)) };
  });
  return { op: 'set', sheet: sheet.index, cells };
}
