import * as ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACME, openTestService } from '../helpers';

/**
 * `--mapping <name>` (issue "Customer sheets in any shape", point 5): the CLI's validate, plan
 * and load take a mapping saved in the app by its name, as they take a mapping file, and a load
 * run again on the same customer file and mapping finds the load it made: "already loaded",
 * nothing run, exit 0 (issue 29, point 8's rule, through a mapping).
 */
const temp = mkdtempSync(join(tmpdir(), 'mapping-cli-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const cli = join(__dirname, '..', '..', '..', 'dist', 'main', 'cli.js');

async function survey(path: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Relevé');
  sheet.addRow(['Site', 'Numéro', 'Nom affiché']);
  sheet.addRow(['Paris', '01 49 95 00 01', 'Poste A']);
  sheet.addRow(['Paris', '01 49 95 00 02', 'Poste B']);
  writeFileSync(path, Buffer.from(await book.xlsx.writeBuffer()));
}

describe('a mapping saved in the app, named on the command line', () => {
  it('loads a customer file through it, and run again says it was loaded and runs nothing', async () => {
    const dataDir = join(temp, 'data');
    const t = await openTestService({ demo: true, dataDir });
    const saved = await t.call('POST', '/workstation/mappings/', {
      name: 'Acme survey',
      hierarchy: ACME,
      mapping: {
        model: 'relation/LineRelation',
        columns: [
          { header: 'Site', target: '#Hierarchy Node', transforms: [{ kind: 'node' }] },
          { header: 'Numéro', target: 'pattern', transforms: [{ kind: 'e164' }] },
          { header: 'Nom affiché', target: 'alertingName' },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(201);
    t.close();
    const file = join(temp, 'survey.xlsx');
    await survey(file);
    const run = (command: string) =>
      spawnSync(process.execPath, [cli, command, file, '--mapping', 'Acme survey', '--hierarchy', ACME, '--data', dataDir, '--json'], {
        encoding: 'utf8',
      });
    const validated = run('validate');
    expect(validated.status, validated.stderr).toBe(0);
    const first = run('load');
    expect(first.status, first.stderr + first.stdout).toBe(0);
    const again = run('load');
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ command: 'load', file, already_loaded: true, rows: 2 });
    const unknown = spawnSync(process.execPath, [cli, 'validate', file, '--mapping', 'No such mapping', '--data', dataDir], {
      encoding: 'utf8',
    });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("no saved mapping named 'No such mapping'");
  }, 60_000);
});
