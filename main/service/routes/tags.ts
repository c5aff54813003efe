import type { ApiResponse } from '../api-types';
import { requireInstance } from '../domain/instance-ops';
import { badParameter, MethodNotAllowed } from '../errors';
import type { ModelDef } from '../models/types';
import type { RequestContext } from '../request-context';
import { json } from '../responses';
import type { RouteDeps } from './deps';
import { guardInstance } from '../domain/guards';

const CLEAR_ALL = '__CLEAR_ALL_TAGS__';
const CLEAR_ONE = '__CLEAR_TAG__';
/** 1 to 64 printable characters; a comma would split the tag in exports. */
const isTag = (text: string): boolean =>
  text.length >= 1 && text.length <= 64 && !text.includes(',') && ![...text].some((c) => c.charCodeAt(0) < 32);

/** Applies the `tag` parameters in order: add a name, `__CLEAR_TAG__<name>`, `__CLEAR_ALL_TAGS__`. */
export function applyTagOperations(current: string[], operations: string[]): string[] {
  let tags = [...current];
  for (const operation of operations) {
    if (operation === CLEAR_ALL) tags = [];
    else if (operation.startsWith(CLEAR_ONE)) tags = tags.filter((tag) => tag !== operation.slice(CLEAR_ONE.length));
    else if (!tags.includes(operation)) tags.push(operation);
  }
  return tags;
}

/**
 * `PATCH .../<pkid>/+tag/` and `+tag_version/`: labels on an instance, shown in its meta. Both
 * need the tag permission. A tag with capitals is stored, with a warning: search folds case
 * on the summary attributes it searches, not on tags.
 */
export function routeTags(deps: RouteDeps, ctx: RequestContext, model: ModelDef, pkid: string, kind: string): ApiResponse {
  if (ctx.method !== 'PATCH') throw new MethodNotAllowed(`${kind}/ takes PATCH.`, ['PATCH']);
  const record = requireInstance(deps.store, pkid, model.modelType);
  guardInstance(ctx, deps.store, record, 'tag');
  if (kind === '+tag_version') {
    const versionTag = ctx.query.get('version_tag');
    if (versionTag === null) throw badParameter('version_tag is required, e.g. version_tag=1.2 (empty clears it).', 'version_tag');
    if (versionTag.length > 64) throw badParameter('version_tag takes at most 64 characters.', 'version_tag');
    deps.store.instances.setVersionTag(pkid, versionTag === '' ? null : versionTag);
    deps.readCache.invalidate();
    return json(200, { success: true, pkid, version_tag: versionTag === '' ? null : versionTag });
  }
  const operations = ctx.query.getAll('tag');
  if (operations.length === 0)
    throw badParameter('Give at least one tag parameter: a name, __CLEAR_TAG__<name> or __CLEAR_ALL_TAGS__.', 'tag');
  const bad = operations.find((operation) => !isTag(operation));
  if (bad !== undefined) throw badParameter(`Tag '${bad}' must be 1 to 64 characters, without commas or control characters.`, 'tag');
  const tags = applyTagOperations(record.tags, operations);
  deps.store.instances.setTags(pkid, tags);
  deps.readCache.invalidate();
  const warnings = operations
    .filter((operation) => !operation.startsWith('__CLEAR') && operation !== operation.toLowerCase())
    .map((tag) => `Tag '${tag}' has capital letters: it is stored, but search will not find it; use lower case.`);
  return json(200, { success: true, pkid, tags, ...(warnings.length > 0 ? { warnings } : {}) });
}
