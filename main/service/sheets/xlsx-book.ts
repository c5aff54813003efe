import type { RawCell } from './cell-value';
import type { WorkbookPackage } from './workbook-package';
import { sharedStringsParser } from './xlsx-shared-strings';
import { stylesParser, StyleTable } from './xlsx-styles';
import { MalformedXml, partParser, type PartParser } from './xlsx-xml-tokens';
import { damaged } from './zip-directory';
import { inflatedChunks } from './zip-inflate';

/**
 * What every sheet's cells are read against: the shared strings, the styles' number formats and
 * the date system. Found where exceljs looks for them, at their usual paths (not through the
 * workbook's relationships), so a workbook reads as it did with exceljs.
 */
export interface XlsxBook {
  /** Undefined when the workbook has no shared strings part: a `t="s"` cell is then unreadable. */
  strings: (RawCell | undefined)[] | undefined;
  styles: StyleTable;
  date1904: boolean;
}

const SHARED_STRINGS = 'xl/sharedStrings.xml';
const STYLES = 'xl/styles.xml';
/** Parts exceljs parsed too, whose XML must then be well-formed though nothing more is needed of them. */
const CHECKED_ONLY = ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels'];

function wellFormedOnly(): PartParser<true> {
  return partParser({ wantsText: false, open: () => undefined, close: () => undefined, text: () => undefined }, () => true as const);
}

async function parsePart<T>(
  path: string,
  pkg: WorkbookPackage,
  name: string,
  fileName: string,
  parser: PartParser<T>,
): Promise<T | undefined> {
  const entry = pkg.entries.get(name);
  if (!entry) return undefined;
  try {
    for await (const chunk of inflatedChunks(path, entry, fileName)) parser.push(chunk);
    return parser.done();
  } catch (error) {
    if (error instanceof MalformedXml) throw damaged(fileName, 'its XML could not be read');
    throw error;
  }
}

export async function readXlsxBook(path: string, pkg: WorkbookPackage, fileName: string): Promise<XlsxBook> {
  for (const name of CHECKED_ONLY) await parsePart(path, pkg, name, fileName, wellFormedOnly());
  return {
    strings: await parsePart(path, pkg, SHARED_STRINGS, fileName, sharedStringsParser()),
    styles: (await parsePart(path, pkg, STYLES, fileName, stylesParser())) ?? StyleTable.none(),
    date1904: pkg.date1904,
  };
}
