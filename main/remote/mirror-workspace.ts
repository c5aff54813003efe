import { existsSync, renameSync, rmSync } from 'node:fs';
import { createStore, type Store } from '../service/domain/store';
import { ALL_MODELS } from '../service/models/registry';
import { openDatabase, type Db } from '../service/store/db';
import { isoMicrosAt } from '../service/store/ids';
import { MirrorPullsRepo, type MirrorPullRecord } from '../service/store/mirror-pulls-repo';
import { syncSummaryIndexes } from '../service/store/summary-indexes';
import { workspaceFile } from '../service/workspace-file';

/**
 * A remote profile's mirror: a workspace file of its own (`workspaces/mirror-<profile id>.sqlite`,
 * the same schema as Local), holding what offline checks need of that remote with the pkids the
 * remote gave. A whole pull is written into a new file that replaces the old one only once it is
 * complete, so a pull that fails or is stopped leaves the last mirror as it was.
 */
export interface MirrorStore {
  db: Db;
  store: Store;
  pulls: MirrorPullsRepo;
  close(): void;
}

export const mirrorName = (profilePkid: string): string => `mirror-${profilePkid}`;

export function mirrorFile(dataDir: string, profilePkid: string): string {
  return workspaceFile(dataDir, mirrorName(profilePkid));
}

function openAt(file: string): MirrorStore {
  const db = openDatabase(file);
  syncSummaryIndexes(db, ALL_MODELS);
  const store = createStore(db, () => isoMicrosAt(Date.now()), null);
  return {
    db,
    store,
    pulls: new MirrorPullsRepo(db),
    close: () => {
      if (db.open) db.close();
    },
  };
}

/** The profile's mirror as it is, or undefined when it was never pulled. */
export function openMirror(dataDir: string, profilePkid: string): MirrorStore | undefined {
  const file = mirrorFile(dataDir, profilePkid);
  return existsSync(file) ? openAt(file) : undefined;
}

/** The last pull of the profile's mirror, or undefined when it was never pulled. */
export function lastPull(dataDir: string, profilePkid: string): MirrorPullRecord | undefined {
  const mirror = openMirror(dataDir, profilePkid);
  try {
    return mirror?.pulls.last();
  } finally {
    mirror?.close();
  }
}

/** A new, empty mirror beside the current one, to be put in its place by `replaceMirror` once whole. */
export function openNextMirror(dataDir: string, profilePkid: string): { mirror: MirrorStore; file: string } {
  const file = `${mirrorFile(dataDir, profilePkid)}.next`;
  removeDatabaseFiles(file);
  return { mirror: openAt(file), file };
}

/** Puts a complete new mirror (closed) in place of the current one. */
export function replaceMirror(dataDir: string, profilePkid: string, next: string): void {
  const file = mirrorFile(dataDir, profilePkid);
  // A closed database in WAL mode has copied its log back: the main file is the whole of it.
  removeDatabaseFiles(file);
  renameSync(next, file);
}

export function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}
