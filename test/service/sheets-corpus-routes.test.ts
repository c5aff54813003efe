import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo } from '../../main/service/contract/workbook-api';
import { CORPUS, corpusFiles } from '../fixtures/real-world/corpus-files';
import { upload, validate } from './bulk-validate-helpers';
import { openTestService, PARIS, type TestService } from './helpers';

/**
 * The real-world corpus through the routes a user's file takes (upload, validate, stage as a
 * workbook): whatever the file, the answer is the validation, a workbook, or a 4xx in the fault
 * shape with a message; never a 5xx, never a hang, and the service goes on answering.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const FILES = corpusFiles();
let uploads = 0;

describe('every real-world workbook through the routes', () => {
  it.each(FILES)(
    '%s: validated and staged, or refused with a 4xx that says why',
    async (file) => {
      const name = `corpus-${(uploads += 1)}.xlsx`;
      const uploaded = await upload(t, name, readFileSync(join(CORPUS, file)), PARIS);
      expect(uploaded.status, uploaded.text).toBe(200);
      const checked = await validate(t, name, PARIS);
      expect(checked.status, checked.text).toBeLessThan(500);
      if (checked.status >= 400)
        expect(checked.body).toMatchObject({ success: false, http_code: checked.status, message: expect.any(String) as unknown });
      const staged = await t.call('POST', '/workstation/workbooks/', { from: 'upload', file: name, hierarchy: PARIS });
      expect(staged.status, staged.text).toBe(202);
      const id = (staged.body as { workbook: WorkbookInfo }).workbook.id;
      await t.service.workbooks.settled(id);
      const info = await t.call('GET', `/workstation/workbooks/${id}/`);
      expect(info.status, info.text).toBe(200);
      const workbook = (info.body as { workbook: WorkbookInfo }).workbook;
      // A refused file says why; one that staged answers its rows.
      if (workbook.state === 'failed') expect(workbook.problem ?? '').not.toBe('');
      else expect((await t.call('GET', `/workstation/workbooks/${id}/sheets/0/rows/?limit=5`)).status).toBeLessThan(500);
      expect((await t.call('DELETE', `/workstation/workbooks/${id}/`)).status).toBeLessThan(300);
    },
    60_000,
  );
});
