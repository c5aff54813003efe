import type { ModelDef } from '../models/types';
import type { ListSource } from './list-sql';

/**
 * Lists of a model's instances. The model type is written into the SQL as a literal (it comes
 * from the registry, never from the request) so that SQLite can use the model's partial
 * summary indexes, whose WHERE clause names the same literal.
 */
export function instanceSource(model: ModelDef, summary = false): ListSource {
  return {
    from: 'instances i',
    where: [`i.model_type = '${model.modelType}'`],
    params: [],
    valueExpr: (field) => `json_extract(i.data, '$.${field}')`,
    foldedExpr: (field) => `lower(json_extract(i.data, '$.${field}'))`,
    idColumn: 'i.id',
    columns: `i.pkid, i.hierarchy_pkid, ${summary ? `${summaryValues(model)} AS summary` : 'i.data'}, i.tags, i.version_tag`,
  };
}

/**
 * A summary list needs a few fields of each row, not its whole JSON: one multi-path
 * json_extract reads them in a single parse as an array, in `summaryAttrs` order (an absent
 * field is null), and the page never parses a full instance in JavaScript.
 */
function summaryValues(model: ModelDef): string {
  // With a single path json_extract returns a bare SQL value; a second path keeps it an array.
  const paths = model.summaryAttrs.map((field) => `'$.${field}'`);
  return `json_extract(i.data, ${(paths.length === 1 ? [paths[0], paths[0]] : paths).join(', ')})`;
}

/**
 * The index each summary attribute of a model needs. Its column order serves a list in one
 * range scan: the folded value (filter and order), the row id (the order's tie-breaker), and
 * the hierarchy (so the count never reads the table).
 */
export function summaryIndexes(model: ModelDef): { name: string; sql: string }[] {
  const table = model.modelType.replace(/\//g, '_');
  return model.summaryAttrs.map((field) => {
    const name = `summary_${table}_${field}`;
    return {
      name,
      sql:
        `CREATE INDEX IF NOT EXISTS "${name}" ON instances (lower(json_extract(data, '$.${field}')), id, hierarchy_pkid) ` +
        `WHERE model_type = '${model.modelType}'`,
    };
  });
}
