import type { Db } from './db';

export interface NodeRow {
  pkid: string;
  parent_pkid: string | null;
  name: string;
  path: string;
  node_type: string;
}

/**
 * The hierarchy tree index. A subtree is a range scan on `path`: every descendant of `a.b`
 * sorts between `a.b.` and `a.b/` because '/' is the character after '.'.
 */
export class NodesRepo {
  /**
   * Nodes are few and read on every request (paths of list rows, `hierarchy` parameters), so
   * they are cached in memory. Every write here clears the cache, and so does the transaction
   * engine after each commit or rollback, so a rolled-back change is never served.
   */
  private readonly cache = new Map<string, NodeRow>();
  private readonly byPkid;
  private readonly byPath;
  private readonly children;
  private readonly childCount;
  private readonly insertRow;
  private readonly deleteRow;
  private readonly subtreeNames;

  constructor(private readonly db: Db) {
    this.byPkid = db.prepare<[string], NodeRow>('SELECT * FROM nodes WHERE pkid = ?');
    this.byPath = db.prepare<[string], NodeRow>('SELECT * FROM nodes WHERE path = ?');
    this.children = db.prepare<[string], NodeRow>('SELECT * FROM nodes WHERE parent_pkid = ? ORDER BY name');
    this.childCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM nodes WHERE parent_pkid = ?');
    this.insertRow = db.prepare(
      'INSERT INTO nodes (pkid, parent_pkid, name, path, node_type) VALUES (@pkid, @parent_pkid, @name, @path, @node_type)',
    );
    this.deleteRow = db.prepare('DELETE FROM nodes WHERE pkid = ?');
    this.subtreeNames = db.prepare<[string, string, string, number], { name: string; path: string }>(
      'SELECT name, path FROM nodes WHERE path = ? OR (path > ? AND path < ?) LIMIT ?',
    );
  }

  /** The names and paths of a node and the nodes below it, up to `most` of them. */
  namesAtOrBelow(path: string, most: number): { name: string; path: string }[] {
    return this.subtreeNames.all(path, `${path}.`, `${path}/`, most);
  }

  get(pkid: string): NodeRow | undefined {
    return this.cached(`pkid:${pkid}`, () => this.byPkid.get(pkid));
  }

  getByPath(path: string): NodeRow | undefined {
    return this.cached(`path:${path}`, () => this.byPath.get(path));
  }

  clearCache(): void {
    this.cache.clear();
  }

  private cached(key: string, read: () => NodeRow | undefined): NodeRow | undefined {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const row = read();
    if (this.cache.size > 50_000) this.cache.clear();
    // Misses are not remembered: a mistyped hierarchy must not grow the cache.
    if (row) this.cache.set(key, row);
    return row;
  }

  root(): NodeRow | undefined {
    return this.db.prepare<[], NodeRow>('SELECT * FROM nodes WHERE parent_pkid IS NULL').get();
  }

  childrenOf(pkid: string): NodeRow[] {
    return this.children.all(pkid);
  }

  countChildren(pkid: string): number {
    return this.childCount.get(pkid)?.n ?? 0;
  }

  insert(row: NodeRow): void {
    this.cache.clear();
    this.insertRow.run(row);
  }

  delete(pkid: string): void {
    this.cache.clear();
    this.deleteRow.run(pkid);
  }

  setType(pkid: string, nodeType: string): void {
    this.cache.clear();
    this.db.prepare('UPDATE nodes SET node_type = ? WHERE pkid = ?').run(nodeType, pkid);
  }

  /**
   * Ancestors from the root down to the node itself, from the cache: every template, policy
   * and macro look-up walks them, once per bulk-load row too.
   */
  lineage(node: NodeRow): NodeRow[] {
    const parts = node.path.split('.');
    const rows: NodeRow[] = [];
    for (let index = 1; index <= parts.length; index += 1) {
      const row = this.getByPath(parts.slice(0, index).join('.'));
      if (row) rows.push(row);
    }
    return rows;
  }

  /** Renames or moves a node: its own path and every descendant's path follow. */
  repath(node: NodeRow, parentPkid: string | null, name: string, newPath: string): void {
    this.cache.clear();
    this.db.prepare('UPDATE nodes SET parent_pkid = ?, name = ? WHERE pkid = ?').run(parentPkid, name, node.pkid);
    this.db
      .prepare(
        `UPDATE nodes SET path = ? || substr(path, ?)
         WHERE path = ? OR (path >= ? AND path < ?)`,
      )
      .run(newPath, node.path.length + 1, node.path, `${node.path}.`, `${node.path}/`);
  }
}

/** SQL (and its parameters) selecting node pkids for a traversal from one node. */
export function traversalScope(traversal: 'down' | 'up' | 'local', node: NodeRow): { sql: string; params: string[] } {
  if (traversal === 'local') return { sql: '?', params: [node.pkid] };
  if (traversal === 'down') {
    return {
      sql: 'SELECT pkid FROM nodes WHERE path = ? OR (path >= ? AND path < ?)',
      params: [node.path, `${node.path}.`, `${node.path}/`],
    };
  }
  const parts = node.path.split('.');
  const paths = parts.map((_, index) => parts.slice(0, index + 1).join('.'));
  return { sql: `SELECT pkid FROM nodes WHERE path IN (${paths.map(() => '?').join(',')})`, params: paths };
}
