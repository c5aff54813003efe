import type { JsonObject } from '../api-types';
import type { SearchRow } from './search-compiler';

/**
 * The JSON text of a search's resources, `{data, meta: {model_type, pkid, hierarchy, href}}`.
 * Pure (node paths come from `pathOf`), so the main thread and the search workers share it.
 * It splices SQLite's JSON into a template: a search answers up to 1,000 hits, and building
 * objects to stringify them costs several times more (each string is still JSON-escaped).
 */
export function resourcesJson(rows: SearchRow[], pathOf: (hierarchyPkid: string) => string): string {
  const quoted = new Map<string, string>();
  const quote = (text: string): string => {
    let json = quoted.get(text);
    if (json === undefined) quoted.set(text, (json = JSON.stringify(text)));
    return json;
  };
  const parts = rows.map(([modelType, pkid, hierarchyPkid, data]) => {
    const meta =
      `"model_type":${quote(modelType)},"pkid":${JSON.stringify(pkid)},` +
      `"hierarchy":${quote(pathOf(hierarchyPkid))},"href":${JSON.stringify(`/api/${modelType}/${pkid}/`)}`;
    return `{"data":${presentOnly(data)},"meta":{${meta}}}`;
  });
  return `[${parts.join(',')}]`;
}

/** A row's summary object without the attributes the instance lacks, as summary lists show it. */
function presentOnly(data: string): string {
  // Most rows have every attribute; only a row with a null pays for a parse.
  if (!data.includes('null')) return data;
  const present: JsonObject = {};
  for (const [name, value] of Object.entries(JSON.parse(data) as JsonObject)) if (value !== null) present[name] = value;
  return JSON.stringify(present);
}
