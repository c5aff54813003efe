import type { Db } from './db';

/** A staged workbook's mapping step (migration 0023): its proposal and the mapping it holds or was staged with. */
export interface WorkbookMappingRecord {
  wb: number;
  upload_id: string;
  file_name: string;
  /** Why the sheet needed a mapping: the loader's refusal of its headers or name. */
  reason: string;
  /** JSON: mapping/propose-workbook.ts's WorkbookProposal. */
  proposal: string;
  /** JSON: mapping/mapping-file.ts's MappingFile. */
  mapping: string;
  /** The saved mapping it started from, if one was remembered. */
  remembered: number | null;
  /** 1 once the mapping was confirmed and the rows staged through it. */
  applied: number;
}

export interface SavedMappingRecord {
  id: number;
  name: string;
  node_pkid: string;
  model_type: string;
  /** JSON: the source headers the mapping was made for. */
  headers: string;
  mapping: string;
  owner: string;
  updated_at: string;
}

export class MappingsRepo {
  constructor(private readonly db: Db) {}

  setWorkbookMapping(record: WorkbookMappingRecord): void {
    this.db
      .prepare(
        `INSERT INTO workbook_mappings (wb, upload_id, file_name, reason, proposal, mapping, remembered, applied)
         VALUES (@wb, @upload_id, @file_name, @reason, @proposal, @mapping, @remembered, @applied)
         ON CONFLICT (wb) DO UPDATE SET upload_id = excluded.upload_id, file_name = excluded.file_name, reason = excluded.reason,
           proposal = excluded.proposal, mapping = excluded.mapping, remembered = excluded.remembered, applied = excluded.applied`,
      )
      .run(record);
  }

  workbookMapping(wb: number): WorkbookMappingRecord | undefined {
    return this.db.prepare<[number], WorkbookMappingRecord>('SELECT * FROM workbook_mappings WHERE wb = ?').get(wb);
  }

  dropWorkbookMapping(wb: number): void {
    this.db.prepare('DELETE FROM workbook_mappings WHERE wb = ?').run(wb);
  }

  save(record: Omit<SavedMappingRecord, 'id'>): number {
    const row = this.db
      .prepare<Omit<SavedMappingRecord, 'id'>, { id: number }>(
        `INSERT INTO saved_mappings (name, node_pkid, model_type, headers, mapping, owner, updated_at)
         VALUES (@name, @node_pkid, @model_type, @headers, @mapping, @owner, @updated_at)
         ON CONFLICT (node_pkid, name) DO UPDATE SET model_type = excluded.model_type, headers = excluded.headers,
           mapping = excluded.mapping, owner = excluded.owner, updated_at = excluded.updated_at
         RETURNING id`,
      )
      .get(record);
    return (row as { id: number }).id;
  }

  saved(id: number): SavedMappingRecord | undefined {
    return this.db.prepare<[number], SavedMappingRecord>('SELECT * FROM saved_mappings WHERE id = ?').get(id);
  }

  /** Saved mappings at any of these nodes, for one model when given. */
  savedAt(nodePkids: readonly string[], modelType?: string): SavedMappingRecord[] {
    if (nodePkids.length === 0) return [];
    const marks = nodePkids.map(() => '?').join(',');
    const rows = this.db
      .prepare<string[], SavedMappingRecord>(`SELECT * FROM saved_mappings WHERE node_pkid IN (${marks}) ORDER BY name, id`)
      .all(...nodePkids);
    return modelType === undefined ? rows : rows.filter((row) => row.model_type === modelType);
  }

  all(): SavedMappingRecord[] {
    return this.db.prepare<[], SavedMappingRecord>('SELECT * FROM saved_mappings ORDER BY name, id').all();
  }

  remove(id: number): void {
    this.db.prepare('DELETE FROM saved_mappings WHERE id = ?').run(id);
  }
}
