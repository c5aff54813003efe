import type { FieldDef, ModelDef } from '../models/types';
import { SHEET_LIMITS } from './limits';

/**
 * Finding the field a header names: by field name in dot notation with 0-based array indexes
 * (`callForwardAll.destination`, `lines.0.pattern`), then by title (`Directory Number`), or by
 * the titles along a nested path (`Call Forward All Destination`). Names and titles compare
 * case- and space-insensitively; a title two fields share is not guessed at.
 */
export type PathSegment = string | number;

export interface FieldPath {
  segments: PathSegment[];
  /** `lines.0.pattern` */
  text: string;
  field: FieldDef;
  /** Computed by the service: a column may show it, its values are never sent. */
  readonly: boolean;
}

export const squash = (text: string): string => text.replace(/\s+/g, '').toLowerCase();
/** Titles along a path compare without the separators people put between them. */
const squashTitle = (text: string): string => squash(text).replace(/[._\-/>:|]/g, '');

function property(fields: Record<string, FieldDef>, name: string): [string, FieldDef] | undefined {
  const exact = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (exact) return [name, exact];
  const matches = Object.entries(fields).filter(([key]) => key.toLowerCase() === name.toLowerCase());
  return matches.length === 1 ? matches[0] : undefined;
}

function arrayIndex(segment: string, field: FieldDef): number | undefined {
  if (!/^\d{1,4}$/.test(segment)) return undefined;
  const index = Number(segment);
  const last = Math.min(SHEET_LIMITS.arrayIndex, (field.maxItems ?? Infinity) - 1);
  return index <= last ? index : undefined;
}

/** `callForwardAll.destination`, `lines.0.pattern`, `lines[0].pattern`: undefined when it is no field. */
export function fieldByName(model: ModelDef, header: string): FieldPath | undefined {
  const parts = squash(header)
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.');
  const segments: PathSegment[] = [];
  let fields: Record<string, FieldDef> | undefined = model.fields;
  let current: FieldDef | undefined;
  let readonly = false;
  for (const part of parts) {
    if (current?.type === 'array' && current.items) {
      const index = arrayIndex(part, current);
      if (index === undefined) return undefined;
      segments.push(index);
      current = current.items;
    } else {
      const found: [string, FieldDef] | undefined = fields ? property(fields, part) : undefined;
      if (!found) return undefined;
      segments.push(found[0]);
      current = found[1];
    }
    readonly ||= current.readonly === true;
    fields = current.properties;
  }
  return current ? { segments, text: segments.join('.'), field: current, readonly } : undefined;
}

type TitleIndex = Map<string, FieldPath | 'ambiguous'>;
const titleIndexes = new WeakMap<ModelDef, { top: TitleIndex; nested: TitleIndex }>();

function remember(index: TitleIndex, key: string, path: FieldPath): void {
  index.set(key, index.has(key) ? 'ambiguous' : path);
}

/** Titles of top-level fields, and title paths of fields nested in objects (not in arrays). */
function titleIndexOf(model: ModelDef): { top: TitleIndex; nested: TitleIndex } {
  const known = titleIndexes.get(model);
  if (known) return known;
  const top: TitleIndex = new Map();
  const nested: TitleIndex = new Map();
  const walk = (fields: Record<string, FieldDef>, segments: string[], titles: string, readonly: boolean): void => {
    for (const [name, field] of Object.entries(fields)) {
      const path: FieldPath = {
        segments: [...segments, name],
        text: [...segments, name].join('.'),
        field,
        readonly: readonly || field.readonly === true,
      };
      if (segments.length === 0) remember(top, squashTitle(field.title), path);
      else remember(nested, titles + squashTitle(field.title), path);
      if (field.type === 'object' && field.properties)
        walk(field.properties, path.segments as string[], titles + squashTitle(field.title), path.readonly);
    }
  };
  walk(model.fields, [], '', false);
  const built = { top, nested };
  titleIndexes.set(model, built);
  return built;
}

/** By title; 'ambiguous' when two fields carry that title. */
export function fieldByTitle(model: ModelDef, header: string): FieldPath | 'ambiguous' | undefined {
  const { top, nested } = titleIndexOf(model);
  const key = squashTitle(header);
  return top.get(key) ?? nested.get(key);
}
