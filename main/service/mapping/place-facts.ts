import type { Db } from '../store/db';
import type { NodeRow } from '../store/nodes-repo';
import type { PlaceFacts } from './mapping-places';

/**
 * What a mapping applied in staging needs of the store (mapping-places.ts), read on a job's own
 * connection: the nodes at or below the workbook's node, the lines at or below it and the
 * inventory numbers at or above it (each bounded: a node's country is told by a sample of its
 * numbers, not a million), and the countries' codes. The CLI reads the same through the API
 * (main/cli-map-places.ts).
 */
const MOST = 20_000;

const below = (node: NodeRow): string[] => [node.path, `${node.path}.`, `${node.path}/`];

function ancestors(path: string): string[] {
  const parts = path.split('.');
  return parts.map((_, index) => parts.slice(0, index + 1).join('.'));
}

export function placeFactsOf(db: Db, node: NodeRow): PlaceFacts {
  const nodes = db
    .prepare<string[], { name: string; path: string }>(
      `SELECT name, path FROM nodes WHERE path = ? OR (path >= ? AND path < ?) LIMIT ${MOST}`,
    )
    .all(...below(node));
  const numbersOf = (modelType: string, field: string, where: string, params: string[]): { number: string; path: string }[] =>
    db
      .prepare<string[], { number: string | null; path: string }>(
        `SELECT json_extract(i.data, '$.${field}') AS number, n.path AS path FROM instances i JOIN nodes n ON n.pkid = i.hierarchy_pkid
         WHERE i.model_type = ? AND ${where} LIMIT ${MOST}`,
      )
      .all(modelType, ...params)
      .flatMap((row) => (typeof row.number === 'string' && row.number !== '' ? [{ number: row.number, path: row.path }] : []));
  const up = ancestors(node.path);
  return {
    nodes,
    lines: numbersOf('device/cucm/Line', 'pattern', '(n.path = ? OR (n.path >= ? AND n.path < ?))', below(node)),
    numbers: numbersOf('data/InternalNumberInventory', 'internal_number', `n.path IN (${up.map(() => '?').join(',')})`, up),
    countryCodes: db
      .prepare<[], { code: string | null }>(
        `SELECT json_extract(data, '$.country_code') AS code FROM instances WHERE model_type = 'data/Countries'`,
      )
      .all()
      .flatMap((row) => (typeof row.code === 'string' && row.code !== '' ? [row.code] : [])),
  };
}
