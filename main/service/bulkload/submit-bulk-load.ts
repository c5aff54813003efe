import type { Store } from '../domain/store';
import type { Caller } from '../routes/guards';
import type { ParsedWorkbook } from '../sheets/sheet-types';
import type { NodeRow } from '../store/nodes-repo';
import type { Submitted, TransactionEngine, TxSpec } from '../transactions/engine';
import { rowTransaction } from './row-transaction';

/**
 * A bulk load: one parent transaction with a sub-transaction per row, sheets left to right and
 * rows in order. A failed row does not stop or undo the others; the parent ends with
 * `[ <ok>/<total> ] succeeded from [ <sheets> ] sheet in <file>`. A load a killed process left
 * unfinished is settled at the next start from its rows' states: a row is never run twice.
 */
export function submitBulkLoad(
  engine: TransactionEngine,
  store: Store,
  caller: Caller,
  workbook: ParsedWorkbook,
  node: NodeRow,
): Submitted {
  const children = rowTransactions(store, caller, workbook, node);
  return engine.submitGroup(loadParent(caller, node, workbook.fileName, children.length, workbook.sheets.length), children, 'Success With Async Failures');
}

export function rowTransactions(store: Store, caller: Caller, workbook: ParsedWorkbook, node: NodeRow): TxSpec[] {
  return workbook.sheets.flatMap((sheet) => sheet.rows.map((row) => rowTransaction({ store, caller, sheet, row, defaultPath: node.path })));
}

export function loadParent(caller: Caller, node: NodeRow, fileName: string, rows: number, sheets: number): Omit<TxSpec, 'run'> {
  return {
    username: caller.principal.username,
    action: 'Execute Bulk Load',
    detail: `[ 0/${rows} ] succeeded from [ ${sheets} ] sheet in ${fileName}`,
    modelType: 'tool/BulkLoad',
    hierarchyPkid: node.pkid,
    hierarchyPath: node.path,
    resourcePkid: null,
  };
}
