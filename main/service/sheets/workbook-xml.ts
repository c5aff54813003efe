import { posix } from 'node:path';

/**
 * The package's own map of its parts (ECMA-376 part 2, Open Packaging Conventions): the package
 * relationships (`_rels/.rels`) name the workbook part, the workbook's relationships name its
 * worksheets, shared strings and styles. Parts are found by these, never by a fixed path, so a
 * workbook stored as `workbook.xml` at the root or sheets under `xl/sheets/` (Numbers, minimal
 * generators) read as Excel reads them; Strict OOXML names the same relationships under
 * another namespace, so relationship types are matched by their last segment.
 */
export interface SheetPart {
  name: string;
  /** ZIP entry name, e.g. `xl/worksheets/sheet1.xml`. */
  path: string;
}

export interface Relationship {
  id: string;
  /** The last segment of its type: `officeDocument`, `worksheet`, `sharedStrings`, `styles`... */
  kind: string;
  /** The part it names, as a package path without its leading `/`. */
  target: string;
}

const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of tag.matchAll(ATTRIBUTE)) {
    // Namespace prefixes vary between writers (`r:id`, `ns1:id`); the local name is enough here.
    const name = match[1].includes(':') && match[1] !== 'xml:space' ? `:${match[1].split(':')[1]}` : match[1];
    attributes.set(name, decodeXml(match[2] ?? match[3] ?? ''));
  }
  return attributes;
}

export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity] ?? '';
  });
}

/** The tags of an element, any prefix, comments left out. */
export function tags(xml: string, localName: string): Map<string, string>[] {
  const bare = xml.includes('<!--') ? xml.replace(/<!--[\s\S]*?-->/g, '') : xml;
  const pattern = new RegExp(`<(?:[\\w.-]+:)?${localName}(?:\\s[^>]*)?/?>`, 'g');
  return [...bare.matchAll(pattern)].map((match) => attributesOf(match[0]));
}

/** A ZIP entry name as the package names parts: forward slashes, no leading slash. */
export const partName = (name: string): string => name.replace(/\\/g, '/').replace(/^\/+/, '');

/** Where the relationships of `part` are stored: `xl/workbook.xml` -> `xl/_rels/workbook.xml.rels`. */
export function relationshipsPartOf(part: string): string {
  return posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
}

function resolveTarget(source: string, target: string): string {
  let decoded = target.replace(/\\/g, '/');
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // A target that is no valid percent-encoding is taken as written.
  }
  if (decoded.startsWith('/')) return posix.normalize(decoded).slice(1);
  return posix.normalize(posix.join(posix.dirname(source), decoded)).replace(/^(\.\.\/)+/, '');
}

/** The internal relationships of `source` (the package itself: `''`), from its `.rels` text. */
export function relationships(relsXml: string, source: string): Relationship[] {
  const found: Relationship[] = [];
  for (const rel of tags(relsXml, 'Relationship')) {
    const target = rel.get('Target');
    if (!target || rel.get('TargetMode')?.toLowerCase() === 'external') continue;
    const kind = (rel.get('Type') ?? '').split('/').pop() ?? '';
    found.push({ id: rel.get('Id') ?? '', kind, target: resolveTarget(source === '' ? '/' : source, target) });
  }
  return found;
}

/** The content types of the parts (`[Content_Types].xml` overrides), by part name. */
export function contentTypes(xml: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const override of tags(xml, 'Override')) {
    const part = override.get('PartName');
    const type = override.get('ContentType');
    if (part && type) types.set(partName(part).toLowerCase(), type);
  }
  return types;
}

/** A sheet of the workbook's list; `path` undefined when its relationship names no worksheet. */
export interface ListedSheet {
  name: string;
  path: string | undefined;
  /** Its relationship names a chart, dialog or macro sheet: no cells to load. */
  other: boolean;
}

/** The sheets of the workbook's list in tab order, each with the worksheet part its relationship names. */
export function listedSheets(workbookXml: string, workbookRels: Relationship[]): ListedSheet[] {
  const byId = new Map(workbookRels.map((rel) => [rel.id, rel]));
  const listed: ListedSheet[] = [];
  for (const sheet of tags(workbookXml, 'sheet')) {
    const name = sheet.get('name');
    if (name === undefined) continue;
    const rel = byId.get(sheet.get(':id') ?? sheet.get('id') ?? '');
    listed.push({ name, path: rel?.kind === 'worksheet' ? rel.target : undefined, other: rel !== undefined && rel.kind !== 'worksheet' });
  }
  return listed;
}

/** `<workbookPr date1904="1">` (or `true`): dates count from 1904. */
export function usesDate1904(workbookXml: string): boolean {
  const properties = tags(workbookXml, 'workbookPr')[0];
  const value = properties?.get('date1904')?.trim().toLowerCase();
  return value === '1' || value === 'true';
}
