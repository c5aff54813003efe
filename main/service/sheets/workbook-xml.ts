import { posix } from 'node:path';

/**
 * The workbook's own list of its worksheets, in tab order (left to right), each with the ZIP
 * part that holds it. Read from `xl/workbook.xml` and its relationships before any sheet is read, so
 * sheets are taken in tab order whatever order the ZIP stores them in.
 */
export interface SheetPart {
  name: string;
  /** ZIP entry name, e.g. `xl/worksheets/sheet1.xml`. */
  path: string;
}

const ATTRIBUTE = /([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

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

function tags(xml: string, localName: string): Map<string, string>[] {
  const pattern = new RegExp(`<(?:\\w+:)?${localName}\\s[^>]*>`, 'g');
  return [...xml.matchAll(pattern)].map((match) => attributesOf(match[0]));
}

/** Worksheet relationship id -> ZIP entry name. */
function worksheetTargets(relsXml: string): Map<string, string> {
  const targets = new Map<string, string>();
  for (const rel of tags(relsXml, 'Relationship')) {
    const id = rel.get('Id');
    const target = rel.get('Target');
    if (!id || !target || !/\/worksheet$/.test(rel.get('Type') ?? '')) continue;
    targets.set(id, target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join('xl', target)));
  }
  return targets;
}

/** The worksheets in tab order; chart sheets and dangling entries are left out. */
export function sheetParts(workbookXml: string, relsXml: string): SheetPart[] {
  const targets = worksheetTargets(relsXml);
  const parts: SheetPart[] = [];
  for (const sheet of tags(workbookXml, 'sheet')) {
    const path = targets.get(sheet.get(':id') ?? '');
    const name = sheet.get('name');
    if (path && name !== undefined) parts.push({ name, path });
  }
  return parts;
}
