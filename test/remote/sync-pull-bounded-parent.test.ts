import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteProfile, SyncPullAnswer } from '../../main/service/contract/workstation-api';
import type { ServeProcess } from '../http/serve-process';
import { workbookOf } from '../service/bulk-validate-helpers';
import { openLocal, PARIS, REMOTE_PASSWORD, settled, startRemote, type Client, type LocalWorkstation } from './remote-world';

/**
 * A pull of changes after a bulk load of more than 100 rows on the remote. A parent transaction's
 * answer now lists its first 100 sub-transactions and counts them all (decisions.md, issue 30
 * finding 8): the pull must page through the rest with `parent_id`, as many as the parent
 * counts, and stay a pull of changes, never fall back to copying the remote whole.
 */
const ROWS = 150;

let remote: ServeProcess;
let direct: Client;
let local: LocalWorkstation;
let profile: RemoteProfile;

async function pull(): Promise<SyncPullAnswer> {
  const answer = await local.admin.call('POST', `/workstation/sync/${profile.name}/pull/`);
  expect(answer.status, `${answer.text}\n${local.logs.join('\n')}`).toBe(200);
  return answer.body as SyncPullAnswer;
}

beforeAll(async () => {
  ({ remote, direct } = await startRemote('20.1.1'));
  local = await openLocal();
  profile = await local.addProfile({ name: 'Bounded', base_url: remote.url, username: 'admin', password: REMOTE_PASSWORD });
}, 120_000);

afterAll(async () => {
  await local?.close();
  await remote?.stop();
});

describe('a pull after a big bulk load on the remote', () => {
  it('reads every row of a 150-row load through the pages of its parent, and stays a pull of changes', async () => {
    expect((await pull()).mode).toBe('full');
    const book = await workbookOf([
      {
        name: 'InternalNumberInventory',
        rows: [
          ['Hierarchy Node', 'internal_number', 'status'],
          ...Array.from({ length: ROWS }, (_, i) => [PARIS, `+3318${String(i).padStart(7, '0')}`, 'Available']),
        ],
      },
    ]);
    const form = new FormData();
    form.append('uploadedfile', new Blob([book]), 'big-load.xlsx');
    expect((await direct.call('POST', `/api/uploadfiles/?hierarchy=${PARIS}`, { form })).status).toBe(200);
    const load = await direct.call('POST', `/api/tool/BulkLoad/?hierarchy=${PARIS}&method=bulkload_spreadsheet&nowait=true`, {
      json: { bulkload_file: 'big-load.xlsx', execute_immediately: true },
    });
    expect(load.status, load.text).toBe(202);
    const done = await settled(direct, load.body.transaction_id as string);
    expect(done.body.data.status, done.text).toBe('Success');
    expect(done.body.data.sub_transactions).toHaveLength(100);
    expect(done.body.data.sub_transaction_counts).toEqual({ total: ROWS, Success: ROWS });

    const changes = await pull();
    expect(changes.mode).toBe('changes');
    expect(changes.changed).toBeGreaterThanOrEqual(ROWS);
    const remoteTotal = await direct.get(`/api/data/InternalNumberInventory/?hierarchy=sys&limit=1&format=json`);
    expect(changes.counts['data/InternalNumberInventory']).toBe(remoteTotal.body.pagination.total);
  }, 120_000);
});
