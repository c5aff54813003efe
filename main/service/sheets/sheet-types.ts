import type { JsonObject } from '../api-types';
import type { RestoreImages } from '../domain/restore-images';

/**
 * What reading a bulk-load workbook produces, and what validation and the loader consume.
 * Layouts, header rules and limits: decisions.md, "Bulk load sheets".
 */
export type RowAction = 'add' | 'modify' | 'delete';

/** Cell A1 of the directive layout: `entity: <model_type>; hierarchy: ...; parallel: ...`. */
export interface SheetDirective {
  entity: string;
  hierarchy?: string;
  parallel: boolean;
  evaluateMacros: boolean;
  template?: string;
}

/** One problem, placed where a field engineer can find it in the workbook. */
export interface SheetIssue {
  sheet: string;
  /** 1-based Excel row; 0 for a problem of the whole sheet. */
  row: number;
  /** Excel column letters (`C`), or '' when no single cell is at fault. */
  column: string;
  /** Field path (`callForwardAll.destination`), meta column name, or ''. */
  field: string;
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /**
   * The fix, when the validator knows it from the store (the form the inventory holds a number
   * in): a staged workbook offers it as the issue's suggestion. Never in the validation answer.
   */
  fix?: IssueFix;
}

/** A suggested new value for an issue's cell, and what applying it does in words. */
export interface IssueFix {
  label: string;
  value: string;
}

export interface ParsedRow {
  rowNumber: number;
  action: RowAction;
  /** The Hierarchy Node column, else the directive's hierarchy. */
  hierarchy?: string;
  /** The CFT Template column, else the directive's template. */
  template?: string;
  /** The Unique Identifier (pkid) column. */
  pkid?: string;
  comment?: string;
  /** The model's fields, nested (dot paths and 0-based array indexes resolved). */
  data: JsonObject;
  /** Field path or meta column name -> column letters, to place issues. */
  columns: Record<string, string>;
  /** The Action cell's text when it is not add, modify or delete: the row must not run. */
  badAction?: string;
  /** Cells of this row that could not be read (their fields are left out): the row must not run. */
  readErrors?: number;
  /** The staged workbook row this row was spooled from (its outcome is written back to it). */
  stagedRow?: number;
  /**
   * What a plan saw of the row: for a modify or delete its target, which must still have this
   * version when the row runs; for an add (`pkid` '') that its key was free.
   */
  expect?: { pkid: string; version: string };
  /** An add that makes again, under its own pkid (the pkid column), an instance a load deleted: a revert's row. */
  recreate?: true;
  /** A revert's row: what it puts back exactly once its workflow has run. */
  restore?: RestoreImages;
}

export interface ParsedSheet {
  name: string;
  modelType: string;
  layout: 'directive' | 'compact';
  directive: SheetDirective;
  /** Empty in the sheet event of streamWorkbook(): the rows follow it one by one. */
  rows: ParsedRow[];
  /** The Excel row of the first data row (2 compact, 5 directive). */
  firstDataRow?: number;
}

export interface ParsedWorkbook {
  fileName: string;
  sheets: ParsedSheet[];
  /** Problems found while reading (numeric cells in text columns, formula without value...). */
  issues: SheetIssue[];
}
