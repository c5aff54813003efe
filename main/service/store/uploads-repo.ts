import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db';

export interface UploadRow {
  id: string;
  name: string;
  size: number;
  sha256: string;
  hierarchy_pkid: string;
  username: string;
  /** The sender's user pkid; null for an upload from before owners were kept whose sender is unknown. */
  owner_pkid: string | null;
  created_at: string;
  seq: number;
}

/** One upload being written; see `UploadsRepo.begin`. */
export interface UploadWriter {
  write(chunk: Uint8Array): void;
  commit(name: string, hierarchyPkid: string, sender: UploadSender): UploadRow;
  abort(): void;
}

/** Who sent an upload: the owner of the row, and the name shown in messages. */
export interface UploadSender {
  pkid: string;
  username: string;
}

/**
 * Uploaded files: bytes in `<folder>/<id>`, a row per upload, owned by the user who sent it.
 * The same name twice keeps both; a look-up by name takes the sender's newest. A file is written
 * to a temporary name and renamed into place before its row commits, so a crash never leaves a
 * row without its bytes.
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
    const known = new Set(
      this.db
        .prepare<[], { id: string }>('SELECT id FROM uploads')
        .all()
        .map((row) => row.id),
    );
    for (const entry of readdirSync(this.folder)) {
      if (entry.endsWith('.partial') || !known.has(entry)) rmSync(join(this.folder, entry), { force: true });
    }
  }

  save(name: string, bytes: Uint8Array, hierarchyPkid: string, sender: UploadSender): UploadRow {
    const writer = this.begin();
    try {
      writer.write(bytes);
    } catch (error) {
      writer.abort();
      throw error;
    }
    return writer.commit(name, hierarchyPkid, sender);
  }

  /**
   * An upload written as it arrives: bytes go to `<id>.partial` chunk by chunk (hashed on the
   * way), and `commit` renames the file into place and records its row. `abort` leaves nothing.
   */
  begin(): UploadWriter {
    const id = randomBytes(12).toString('hex');
    const partial = join(this.folder, `${id}.partial`);
    const fd = openSync(partial, 'wx');
    const hash = createHash('sha256');
    let size = 0;
    let open = true;
    const close = (): void => {
      if (open) closeSync(fd);
      open = false;
    };
    return {
      write: (chunk) => {
        writeSync(fd, chunk);
        hash.update(chunk);
        size += chunk.byteLength;
      },
      abort: () => {
        close();
        rmSync(partial, { force: true });
      },
      commit: (name, hierarchyPkid, sender) => {
        close();
        renameSync(partial, this.pathOf(id));
        const row: UploadRow = {
          id,
          name,
          size,
          sha256: hash.digest('hex'),
          hierarchy_pkid: hierarchyPkid,
          username: sender.username,
          owner_pkid: sender.pkid,
          created_at: this.now(),
          seq: 0,
        };
        try {
          this.db
            .prepare(
              `INSERT INTO uploads (id, name, size, sha256, hierarchy_pkid, username, owner_pkid, created_at, seq)
               VALUES (@id, @name, @size, @sha256, @hierarchy_pkid, @username, @owner_pkid, @created_at, (SELECT coalesce(max(seq), 0) + 1 FROM uploads))`,
            )
            .run(row);
        } catch (error) {
          rmSync(this.pathOf(id), { force: true });
          throw error;
        }
        return row;
      },
    };
  }

  /**
   * The newest upload of that name among the owner's own. `withUnowned` adds the uploads whose
   * sender is unknown (older stores): only an admin at the root may be given those.
   */
  newestOwned(name: string, ownerPkid: string, withUnowned = false): UploadRow | undefined {
    return this.db
      .prepare<[string, string, number], UploadRow>(
        'SELECT * FROM uploads WHERE name = ? AND (owner_pkid = ? OR (? AND owner_pkid IS NULL)) ORDER BY seq DESC LIMIT 1',
      )
      .get(name, ownerPkid, withUnowned ? 1 : 0);
  }

  get(id: string): UploadRow | undefined {
    return this.db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE id = ?').get(id);
  }

  pathOf(id: string): string {
    if (!/^[0-9a-f]{24}$/.test(id)) throw new Error('not an upload id');
    return join(this.folder, id);
  }
}
