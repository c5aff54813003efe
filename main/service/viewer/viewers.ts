import { randomBytes } from 'node:crypto';
import type { ViewerFindAnswer, ViewerInfo, ViewerMatch, ViewerRowPage, ViewerSource } from '../contract/viewer-api';
import { notFound } from '../errors';
import type { ViewedBook } from './viewed-book';

/**
 * The workbooks open in the export viewer, held in memory: a viewer is a look at a file, not
 * work to keep, so nothing is stored and a restart forgets them. Each is its opener's alone
 * (anyone else gets 404, as if it did not exist). Memory stays bounded: a viewer is dropped
 * after `idleMs` without a read, a user keeps at most `perUser` (opening one more drops their
 * oldest) and the service at most `total` (the least recently read goes).
 */
export interface ViewerLimits {
  idleMs: number;
  perUser: number;
  total: number;
}

const DEFAULT_LIMITS: ViewerLimits = { idleMs: 30 * 60 * 1000, perUser: 3, total: 24 };

interface HeldViewer {
  id: string;
  owner: string;
  name: string;
  source: ViewerSource;
  book: ViewedBook;
  lastRead: number;
}

export class Viewers {
  private readonly held = new Map<string, HeldViewer>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly limits: ViewerLimits = DEFAULT_LIMITS,
  ) {}

  /** Holds a book read for `owner` (a user pkid); answers what the screen needs of it. */
  add(owner: string, name: string, source: ViewerSource, book: ViewedBook): ViewerInfo {
    this.expire();
    const mine = [...this.held.values()].filter((viewer) => viewer.owner === owner);
    for (const viewer of oldestFirst(mine).slice(0, Math.max(0, mine.length - this.limits.perUser + 1))) this.held.delete(viewer.id);
    for (const viewer of oldestFirst([...this.held.values()]).slice(0, Math.max(0, this.held.size - this.limits.total + 1))) {
      this.held.delete(viewer.id);
    }
    const viewer: HeldViewer = { id: randomBytes(9).toString('base64url'), owner, name, source, book, lastRead: this.clock() };
    this.held.set(viewer.id, viewer);
    return this.infoOf(viewer);
  }

  info(owner: string, id: string): ViewerInfo {
    return this.infoOf(this.read(owner, id));
  }

  rows(owner: string, id: string, sheet: number, skip: number, limit: number): ViewerRowPage {
    const viewed = this.read(owner, id).book.sheets[sheet];
    if (!viewed) throw notFound(`No sheet ${sheet} in this viewer: sheets are numbered from 0.`);
    const width = viewed.info.columns.length;
    const rows = viewed.rows.slice(skip, skip + limit).map((row) => ({
      row: row.row,
      cells: Array.from({ length: width }, (_, at) => row.cells[at] ?? ''),
    }));
    return { sheet, total: viewed.rows.length, skip, rows };
  }

  /** The data cells holding `text` (ignoring case), in tab order, row by row, left to right. */
  find(owner: string, id: string, text: string, limit: number): ViewerFindAnswer {
    const needle = text.toLocaleLowerCase();
    const matches: ViewerMatch[] = [];
    let total = 0;
    for (const viewed of this.read(owner, id).book.sheets) {
      viewed.rows.forEach((row, index) => {
        row.cells.forEach((cell, column) => {
          if (!cell.toLocaleLowerCase().includes(needle)) return;
          total += 1;
          if (matches.length < limit) matches.push({ sheet: viewed.info.index, index, column });
        });
      });
    }
    return { text, total, matches };
  }

  remove(owner: string, id: string): void {
    this.held.delete(this.read(owner, id).id);
  }

  private read(owner: string, id: string): HeldViewer {
    this.expire();
    const viewer = this.held.get(id);
    if (!viewer || viewer.owner !== owner) throw notFound(`No viewer '${id}': it was closed or not read for a while; open the file again.`);
    viewer.lastRead = this.clock();
    return viewer;
  }

  private expire(): void {
    const now = this.clock();
    for (const viewer of this.held.values()) if (now - viewer.lastRead > this.limits.idleMs) this.held.delete(viewer.id);
  }

  private infoOf(viewer: HeldViewer): ViewerInfo {
    return {
      id: viewer.id,
      name: viewer.name,
      source: viewer.source,
      sheets: viewer.book.sheets.map((sheet) => sheet.info),
      truncated: viewer.book.truncated,
      expires_at: new Date(viewer.lastRead + this.limits.idleMs).toISOString(),
    };
  }
}

const oldestFirst = (viewers: HeldViewer[]): HeldViewer[] => [...viewers].sort((a, b) => a.lastRead - b.lastRead);
