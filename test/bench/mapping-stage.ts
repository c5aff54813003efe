import * as ExcelJS from 'exceljs';
import type { WorkbookMappingAnswer } from '../../main/service/contract/mapping-api';
import type { WorkbookInfo } from '../../main/service/contract/workbook-api';
import { baselineRead, measureJob, uploadFile, type JobFigures, type Server } from './sheets-steps';
import { call, waitWhile } from './workbook-calls';

/**
 * Issue 31's bench: a customer's 100,000-row sheet (a French site survey: site, local number,
 * name, comment) staged, waiting in `mapping`, and its proposed mapping confirmed: the time from
 * the confirmation to the rows staged (the file rewritten through the mapping on a worker, then
 * read into the workbook), against exceljs's streaming read of the same file.
 */
const SITE = 'sys.hcs.Telco.Acme';

export async function writeSurvey(file: string, rows: number): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
  const sheet = book.addWorksheet('Relevé');
  sheet.addRow(['Site', 'Numéro', 'Nom affiché', 'Commentaire']).commit();
  for (let i = 0; i < rows; i += 1) {
    const digits = String(i).padStart(6, '0');
    sheet
      .addRow(['Paris', `01 47 ${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4)}`, `Poste ${i}`, `bureau ${i % 50}`])
      .commit();
  }
  sheet.commit();
  await book.commit();
}

export interface MappedStaging {
  readRate: number;
  job: JobFigures;
  seconds: number;
  rows: number;
}

export async function measureMappedStaging(server: Server, authorization: string, file: string, rows: number): Promise<MappedStaging> {
  await uploadFile(server.origin, authorization, file, 'survey-100k.xlsx');
  const readRate = await baselineRead(file);
  const created = await call<{ workbook: WorkbookInfo }>(server, authorization, 'POST', '/workstation/workbooks/', {
    from: 'upload',
    file: 'survey-100k.xlsx',
    hierarchy: SITE,
  });
  const id = created.workbook.id;
  const waiting = await waitWhile(server, authorization, id, ['staging']);
  if (waiting.state !== 'mapping') throw new Error(`the survey staged as ${waiting.state}, not mapping: ${waiting.problem ?? ''}`);
  const step = await call<WorkbookMappingAnswer>(server, authorization, 'GET', `/workstation/workbooks/${id}/mapping/`);
  let seconds = 0;
  let staged: WorkbookInfo | undefined;
  const job = await measureJob(server, authorization, async () => {
    const started = performance.now();
    await call(server, authorization, 'POST', `/workstation/workbooks/${id}/mapping/`, { mapping: step.mapping });
    staged = await waitWhile(server, authorization, id, ['staging']);
    seconds = (performance.now() - started) / 1000;
  });
  if (!staged || staged.counts.rows !== rows) throw new Error(`the mapped survey staged ${staged?.counts.rows ?? 0} rows, not ${rows}`);
  return { readRate, job, seconds, rows };
}
