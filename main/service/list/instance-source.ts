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
    valueExpr: (field) => fieldValue(model, `$.${field}`),
    foldedExpr: (field) => `lower(${fieldValue(model, `$.${field}`)})`,
    idColumn: 'i.id',
    columns: `i.pkid, i.hierarchy_pkid, ${summary ? `${summaryObject()} AS summary` : 'i.data'}, i.tags, i.version_tag`,
  };
}

/**
 * A field's value in SQL: a summary attribute's from the summary column, which is what its
 * index holds (an index serves a query only when the query names its exact expression); any
 * other field's from the document.
 */
export function fieldValue(model: ModelDef, jsonPath: string, alias = 'i.'): string {
  const column = model.summaryAttrs.some((attr) => jsonPath === `$.${attr}`) ? 'summary' : 'data';
  return `json_extract(${alias}${column}, '${jsonPath}')`;
}

/**
 * A row's summary attributes as a JSON object, an absent attribute null: the stored summary
 * column (migration 11, `store/summary-values.ts`). Lists and searches select exactly this, and
 * the model's first summary index holds it, so a page or a search answers from the index.
 */
export function summaryObject(alias = 'i.'): string {
  return `${alias}summary`;
}

/**
 * The same object built from the document, as SQLite would (`->` keeps each value's JSON type):
 * how the summary column is filled for a model whose summary attributes are new or changed.
 */
export function summaryFromData(model: ModelDef): string {
  return `json_object(${model.summaryAttrs.map((field) => `'${field}', data -> '$.${field}'`).join(', ')})`;
}

const foldedColumn = (field: string): string => `lower(json_extract(summary, '$.${field}'))`;

/**
 * The index each summary attribute of a model needs. Its column order serves a list in one
 * range scan: the folded value (filter and order), the row id (the order's tie-breaker), and
 * the hierarchy (so the count never reads the table). The first attribute's index, the one
 * lists and searches walk by default, also holds the other attributes' folded values, the
 * summary object and the pkid: a `like` on any summary attribute and a search's whole answer
 * (summary, pkid, hierarchy) never read the table. Without the pkid, each of a search's 1,000
 * hits was one more look-up in the table, a third of a prefix search's SQL time.
 */
export function summaryIndexes(model: ModelDef): { name: string; sql: string }[] {
  const table = model.modelType.replace(/\//g, '_');
  return model.summaryAttrs.map((field, position) => {
    const name = `summary_${table}_${field}`;
    const extra = position === 0 ? [...model.summaryAttrs.slice(1).map(foldedColumn), summaryObject(''), 'pkid'] : [];
    const columns = [foldedColumn(field), 'id', 'hierarchy_pkid', ...extra].join(', ');
    return { name, sql: `CREATE INDEX "${name}" ON instances (${columns}) WHERE model_type = '${model.modelType}'` };
  });
}
