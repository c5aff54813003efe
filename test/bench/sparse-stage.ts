import * as ExcelJS from 'exceljs';
import { statSync } from 'node:fs';

/**
 * A small file with one far-away cell (issue "Every real-world workbook read..."): a LineRelation
 * header and one row at A999990, about 6 KB. Staged, it is one row with its Excel number, not
 * 999,989 stored rows; the bench times it from the request to the staged workbook.
 */
export const FAR_ROW = 999_990;

export async function writeFarAwayCell(file: string, header: string[], row: string[]): Promise<number> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('LineRelation');
  sheet.getRow(1).values = header;
  sheet.getRow(FAR_ROW).values = row;
  await workbook.xlsx.writeFile(file);
  return statSync(file).size;
}

interface Staged {
  workbook: { id: string; state: string; counts: { rows: number } };
}

/** Stages an uploaded file as a workbook and waits until it is staged: its rows and the seconds it took. */
export async function stageAndWait(
  origin: string,
  authorization: string,
  file: string,
  hierarchy: string,
): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  const headers = { authorization, 'content-type': 'application/json' };
  const created = await fetch(`${origin}/workstation/workbooks/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ from: 'upload', file, hierarchy }),
  });
  if (created.status >= 300) throw new Error(`staging ${file} answered ${created.status}: ${await created.text()}`);
  let now = (await created.json()) as Staged;
  while (now.workbook.state === 'staging') {
    await new Promise((resolve) => setTimeout(resolve, 10));
    now = (await (await fetch(`${origin}/workstation/workbooks/${now.workbook.id}/`, { headers })).json()) as Staged;
  }
  return { rows: now.workbook.counts.rows, seconds: (performance.now() - started) / 1000 };
}
