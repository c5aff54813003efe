import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, extname, join } from 'node:path';

/**
 * LibreOffice in a test: `soffice --headless --convert-to`, as test/fixtures/make-fixtures.ts
 * runs it, each session with its own throwaway profile (`-env:UserInstallation`) so two test
 * files converting at once, or a LibreOffice the developer has open, do not clash.
 */

/** The `soffice` on the PATH, or null when LibreOffice is not installed. */
export function findSoffice(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'soffice');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/**
 * CSV as LibreOffice shows the cells: comma, double quotes, UTF-8 (76), from line 1, cells as
 * shown (number formats applied), and -1: every sheet to its own file (LibreOffice 7.2 and
 * later; an older one writes the first sheet only).
 */
const CSV_FILTER = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1';

/** One sheet of a CSV conversion; `sheet` is null when LibreOffice wrote the first sheet only. */
export interface CsvSheet {
  sheet: string | null;
  rows: string[][];
}

export interface LibreOffice {
  /** Converts a file (.fods, .csv, .xlsx...) to .xlsx with LibreOffice's own export; the path of the result. */
  toXlsx(source: string, outDir: string): Promise<string>;
  /** The sheets of an .xlsx as LibreOffice reads and shows them. */
  toCsv(source: string, outDir: string): Promise<CsvSheet[]>;
  close(): void;
}

const TIMEOUT_MS = 120_000;

export function openLibreOffice(soffice: string): LibreOffice {
  const profile = mkdtempSync(join(tmpdir(), 'soffice-profile-'));
  const run = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile(
        soffice,
        [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', ...args],
        { timeout: TIMEOUT_MS },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`soffice ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
          else resolve(stdout);
        },
      );
    });
  return {
    async toXlsx(source, outDir) {
      const stdout = await run(['--convert-to', 'xlsx', '--outdir', outDir, source]);
      const target = join(outDir, `${basename(source, extname(source))}.xlsx`);
      if (!readFileSync(target).length) throw new Error(`soffice wrote an empty ${target}: ${stdout}`);
      return target;
    },
    async toCsv(source, outDir) {
      const stdout = await run(['--convert-to', CSV_FILTER, '--outdir', outDir, source]);
      // 7.2 and later name each sheet it writes: `Writing sheet <name> -> <path>`.
      const written = [...stdout.matchAll(/^Writing sheet (.*) -> (.*)$/gm)].map(([, sheet, path]) => ({ sheet, path }));
      const files = written.length ? written : [{ sheet: null, path: join(outDir, `${basename(source, extname(source))}.csv`) }];
      return files.map(({ sheet, path }) => ({ sheet, rows: parseCsv(readFileSync(path, 'utf8')) }));
    },
    close() {
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
