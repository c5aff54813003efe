import Database from 'better-sqlite3';
import { createStore, type Store } from '../domain/store';
import { findModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import { isoMicrosAt } from '../store/ids';
import type { NodeRow } from '../store/nodes-repo';
import { templateCache } from '../templates/configuration-template';
import { DataBases, precheckAdd, templateName, type RowPrecheck, type TemplateLookups } from './row-precheck';
import type { ParsedRow, ParsedSheet } from './sheet-types';

/** What a reader thread needs to precheck rows: the workspace file and the validation's own node. */
export interface PrecheckInput {
  dbFile: string;
  defaultNodePkid: string;
}

/**
 * Prechecks (row-precheck.ts) on the reader thread, on a read-only connection of its own held in
 * one read transaction for the whole workbook, as the validator holds its own. Rows are placed
 * as the validator places them, at nodes that exist in the store; a row whose node only an
 * earlier row creates is left to the validator.
 */
export class RowPrechecker {
  private readonly db: Database.Database;
  /** Its read-only store, in one read transaction: a staged workbook's reader pages its rows through it too. */
  readonly store: Store;
  private readonly lookups: TemplateLookups = { findTemplate: templateCache(), templateQueries: new Map() };
  private readonly nodes = new Map<string, NodeRow | null>();
  private readonly defaultNode: NodeRow | undefined;
  private readonly bases = new DataBases();
  private sheet?: { sheet: ParsedSheet; model: ModelDef | undefined; index: number };
  private sheets = 0;

  constructor(input: PrecheckInput) {
    this.db = new Database(input.dbFile, { readonly: true, fileMustExist: true });
    // As the job workers' connections: pages through SQLite's own small cache, not a memory map.
    this.db.pragma('mmap_size = 0');
    this.db.pragma('cache_size = -8192');
    this.db.exec('BEGIN');
    this.store = createStore(this.db, () => isoMicrosAt(Date.now()), null);
    this.defaultNode = this.store.nodes.get(input.defaultNodePkid);
  }

  enterSheet(sheet: ParsedSheet): void {
    this.sheet = { sheet, model: findModel(sheet.modelType), index: this.sheets };
    this.sheets += 1;
  }

  /** The precheck of an added row, or undefined when the validator must work it out itself. */
  check(row: ParsedRow): RowPrecheck | undefined {
    const current = this.sheet;
    if (!current?.model || row.action !== 'add' || row.badAction !== undefined) return undefined;
    const node = this.nodeOf(current.sheet, row);
    if (!node) return undefined;
    try {
      const pre = precheckAdd(this.store, current.model, node, current.sheet, row, this.lookups);
      return pre && this.bases.compact(`${current.index}\u0000${node.pkid}\u0000${templateName(current.sheet, row) ?? ''}`, pre);
    } catch {
      // Whatever went wrong, the validator meets it again on this row and reports it there.
      return undefined;
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private nodeOf(sheet: ParsedSheet, row: ParsedRow): NodeRow | undefined {
    const text = row.hierarchy ?? sheet.directive.hierarchy;
    if (text === undefined) return this.defaultNode;
    if (!this.nodes.has(text)) this.nodes.set(text, this.store.nodes.get(text) ?? this.store.nodes.getByPath(text) ?? null);
    return this.nodes.get(text) ?? undefined;
  }
}
