import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db';

export interface UploadRow {
  id: string;
  name: string;
  size: number;
  sha256: string;
  hierarchy_pkid: string;
  username: string;
  created_at: string;
  seq: number;
}

/**
 * Uploaded files: bytes in `<folder>/<id>`, a row per upload. The same name twice keeps both;
 * a look-up by name takes the newest. A file is written to a temporary name and renamed into
 * place before its row commits, so a crash never leaves a row without its bytes.
 */
export class UploadsRepo {
  constructor(
    private readonly db: Db,
    readonly folder: string,
    private readonly now: () => string,
  ) {
    mkdirSync(folder, { recursive: true });
    this.sweep();
  }

  /** What a crash left behind: half-written files, and bytes whose row never committed. */
  private sweep(): void {
    const known = new Set(this.db.prepare<[], { id: string }>('SELECT id FROM uploads').all().map((row) => row.id));
    for (const entry of readdirSync(this.folder)) {
      if (entry.endsWith('.partial') || !known.has(entry)) rmSync(join(this.folder, entry), { force: true });
    }
  }

  save(name: string, bytes: Uint8Array, hierarchyPkid: string, username: string): UploadRow {
    const id = randomBytes(12).toString('hex');
    const partial = join(this.folder, `${id}.partial`);
    writeFileSync(partial, bytes);
    renameSync(partial, this.pathOf(id));
    const row: UploadRow = {
      id,
      name,
      size: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      hierarchy_pkid: hierarchyPkid,
      username,
      created_at: this.now(),
      seq: 0,
    };
    try {
      this.db
        .prepare(
          `INSERT INTO uploads (id, name, size, sha256, hierarchy_pkid, username, created_at, seq)
           VALUES (@id, @name, @size, @sha256, @hierarchy_pkid, @username, @created_at, (SELECT coalesce(max(seq), 0) + 1 FROM uploads))`,
        )
        .run(row);
    } catch (error) {
      rmSync(this.pathOf(id), { force: true });
      throw error;
    }
    return row;
  }

  /** The newest upload of that name. */
  newestNamed(name: string): UploadRow | undefined {
    return this.db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE name = ? ORDER BY seq DESC LIMIT 1').get(name);
  }

  get(id: string): UploadRow | undefined {
    return this.db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE id = ?').get(id);
  }

  pathOf(id: string): string {
    if (!/^[0-9a-f]{24}$/.test(id)) throw new Error('not an upload id');
    return join(this.folder, id);
  }
}
