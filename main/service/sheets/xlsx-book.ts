import type { RawCell } from './cell-value';
import { entryOf, type WorkbookPackage } from './workbook-package';
import { sharedStringsParser } from './xlsx-shared-strings';
import { stylesParser, StyleTable } from './xlsx-styles';
import { MalformedXml, type PartParser } from './xlsx-xml-tokens';
import { damaged } from './zip-directory';
import { inflatedChunks } from './zip-inflate';

/**
 * What every sheet's cells are read against: the shared strings, the styles' number formats and
 * the date system, from the parts the workbook's relationships name (workbook-package.ts).
 */
export interface XlsxBook {
  /** Undefined when the workbook has no shared strings part: a `t="s"` cell is then unreadable. */
  strings: (RawCell | undefined)[] | undefined;
  styles: StyleTable;
  date1904: boolean;
}

async function parsePart<T>(
  path: string,
  pkg: WorkbookPackage,
  name: string | undefined,
  fileName: string,
  parser: PartParser<T>,
): Promise<T | undefined> {
  const entry = name === undefined ? undefined : entryOf(pkg, name);
  if (!entry) return undefined;
  try {
    for await (const chunk of inflatedChunks(path, entry, fileName)) parser.push(chunk);
    return parser.done();
  } catch (error) {
    if (error instanceof MalformedXml)
      throw damaged(fileName, `its part ${entry.name} cannot be read as spreadsheet XML (${error.message})`);
    throw error;
  }
}

export async function readXlsxBook(path: string, pkg: WorkbookPackage, fileName: string): Promise<XlsxBook> {
  return {
    strings: await parsePart(path, pkg, pkg.sharedStrings, fileName, sharedStringsParser()),
    styles: (await parsePart(path, pkg, pkg.styles, fileName, stylesParser())) ?? StyleTable.none(),
    date1904: pkg.date1904,
  };
}
