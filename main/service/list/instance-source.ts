import type { ModelDef } from '../models/types';
import type { ListSource } from './list-sql';

/**
 * Lists of a model's instances. The model type is written into the SQL as a literal (it comes
 * from the registry, never from the request) so that SQLite can use the model's partial
 * summary indexes, whose WHERE clause names the same literal.
 */
export function instanceSource(model: ModelDef): ListSource {
  return {
    from: 'instances i',
    where: [`i.model_type = '${model.modelType}'`],
    params: [],
    valueExpr: (field) => `json_extract(i.data, '$.${field}')`,
    foldedExpr: (field) => `lower(json_extract(i.data, '$.${field}'))`,
    idColumn: 'i.id',
    columns: 'i.pkid, i.hierarchy_pkid, i.data, i.tags, i.version_tag',
  };
}

/** The index each summary attribute of a model needs: sorting and filtering are range scans. */
export function summaryIndexStatements(model: ModelDef): string[] {
  const table = model.modelType.replace(/\//g, '_');
  return model.summaryAttrs.map(
    (field) =>
      `CREATE INDEX IF NOT EXISTS "sx_${table}_${field}" ON instances (lower(json_extract(data, '$.${field}'))) ` +
      `WHERE model_type = '${model.modelType}'`,
  );
}
