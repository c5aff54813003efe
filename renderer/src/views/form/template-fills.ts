import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { isRecord, joinPath, kindOf, propertyAt } from './schema-paths';

/** One field a Configuration Template gives a value, with the text (often a macro) it uses. */
export interface TemplateFill {
  path: string;
  /** The field's titles from the top, e.g. "Call Forward Busy › Forward to Voice Mail". */
  title: string;
  text: string;
  /** Built once per element of the template's `foreach` list. */
  perItem?: boolean;
}

/**
 * The fields a template's `template` object will fill, as dot paths of the form's model. Nested
 * objects of the model are walked name by name (the service merges them that way); anything
 * else is one value. `name[]` keys and `__foreach__` blocks build per foreach item.
 */
export function templateFills(template: unknown, schema: SchemaProperty): TemplateFill[] {
  const fills: TemplateFill[] = [];
  walk(template, '', schema, false, fills);
  return fills;
}

function walk(value: unknown, path: string, schema: SchemaProperty, perItem: boolean, fills: TemplateFill[]): void {
  if (!isRecord(value)) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === '__foreach__') {
      walk(child, path, schema, true, fills);
      continue;
    }
    const listKey = key.endsWith('[]');
    const fieldPath = joinPath(path, listKey ? key.slice(0, -2) : key);
    const property = propertyAt(schema, fieldPath);
    if (!listKey && isRecord(child) && property && kindOf(property) === 'object') {
      walk(child, fieldPath, schema, perItem, fills);
      continue;
    }
    fills.push({
      path: fieldPath,
      title: titlePath(schema, fieldPath),
      text: typeof child === 'string' ? child : JSON.stringify(child),
      perItem: perItem || listKey || undefined,
    });
  }
}

/** Whether a template fills this path, or an object or list that holds it. */
export function filledBy(fills: TemplateFill[]): (path: string) => boolean {
  const paths = new Set(fills.map((fill) => fill.path));
  return (path) => {
    const segments = path.split('.');
    return segments.some((_, i) => paths.has(segments.slice(0, i + 1).join('.')));
  };
}

function titlePath(schema: SchemaProperty, path: string): string {
  const segments = path.split('.');
  return segments.map((segment, i) => propertyAt(schema, segments.slice(0, i + 1).join('.'))?.title ?? segment).join(' › ');
}
