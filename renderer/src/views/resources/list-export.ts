import type { ViewerOpenRequest } from '../../../../main/service/contract/viewer-api';
import type { TreeNode } from '../../store/hierarchy-store';
import type { ListQuery } from '../../store/resources-store';

/**
 * The export the list's View and Edit as workbook stand for: the checked rows when there are
 * some, else the whole list as filtered, ordered and traversed now (every page, not only the one
 * shown). An export carries one filter set (its parameters are an object, one value a name), so
 * a list filtered on two fields at once cannot be exported as shown: the buttons say so.
 */
export function exportOf(
  node: TreeNode,
  modelType: string,
  title: string,
  checked: ReadonlySet<string>,
  query: ListQuery | undefined,
): { request?: ViewerOpenRequest; what: string; disabledWhy?: string } {
  const model = title.toLowerCase();
  if (checked.size > 0) {
    return {
      request: { from: 'export', model_type: modelType, hierarchy: node.path, hrefs: [...checked] },
      what: `the ${checked.size} selected ${model}`,
    };
  }
  if (!query) return { what: `the ${model} at ${node.name}` };
  const filters = query.filters.filter((filter) => filter.field !== '' && filter.text.trim() !== '');
  const what = `${filters.length > 0 ? 'the filtered' : 'all the'} ${model} at ${node.name}`;
  if (filters.length > 1)
    return { what, disabledWhy: 'An export takes one filter at a time: keep one filter, or check the rows to export.' };
  const filter: Record<string, string> = { traversal: query.traversal };
  if (query.orderBy) Object.assign(filter, { order_by: query.orderBy, direction: query.direction });
  const [only] = filters;
  if (only) Object.assign(filter, { filter_field: only.field, filter_condition: only.condition, filter_text: only.text.trim() });
  return { request: { from: 'export', model_type: modelType, hierarchy: node.path, filter }, what };
}
