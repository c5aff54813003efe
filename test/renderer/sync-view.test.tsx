// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionTestResult, SyncPullAnswer, SyncPushAnswer, SyncStatus } from '../../main/service/contract/workstation-api';
import { mirrorText, mirrorTime } from '../../renderer/src/store/mirror-time';
import { createStores, StoresContext, type Stores } from '../../renderer/src/store/stores';
import { workbooksFor } from '../../renderer/src/store/sync-store';
import { SyncView } from '../../renderer/src/views/SyncView';
import { WorkbooksView } from '../../renderer/src/views/WorkbooksView';
import { EventTransport, fault, FakeTransport } from './fake-transport';
import { workbookSummary } from './workbook-fixtures';

afterEach(cleanup);

const SYNC = '/workstation/sync/AcmeProd/';
const WORKBOOKS = '/workstation/workbooks/';

/** Today's local date as the service writes it (no zone), so a pull of "today" reads as its time alone. */
function today(time: string): string {
  const now = new Date();
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${time}`;
}

const NEVER: SyncStatus = { profile: 'AcmeProd', pulled_at: null, mode: null, home_hierarchy: null, counts: {} };
const PULLED: SyncPullAnswer = {
  mode: 'full',
  pulled_at: today('09:40:12.114000'),
  home_hierarchy: 'sys.hcs.Telco.Acme',
  counts: { 'relation/LineRelation': 20040, 'device/cucm/Phone': 5120 },
  changed: null,
  reread: [],
};

/** The panel's label of a mirror pulled today at `time`: its date, time and an age. */
const labelOf = (time: string): RegExp =>
  new RegExp(`^mirror of ${today('').slice(0, 10)} ${time} \\((just now|\\d+ min ago|\\d+ h( \\d+ min)? ago)\\)$`);

/** A push's answer: 5,240 rows pushed, 2 failed, 10 kept back, two rows whose plan changed. */
const PUSHED: SyncPushAnswer = {
  workbook: 'w1',
  push_id: 'push-1',
  remote_transaction_id: 'tx-0b6f',
  resumed: false,
  pushed: 5240,
  loaded: 5238,
  failed: 2,
  conflicts: 9,
  errors: 1,
  changed_since_plan: [
    { sheet: 'LineRelation', row: 9, row_id: 7, was: 'add', now: 'conflict', message: 'number +33160000007 is Used' },
    { sheet: 'Phone', row: 4, row_id: 3, was: 'modify', now: 'add', message: null },
  ],
};

const WORKSPACES = {
  workspaces: [
    { name: 'Local', live: false, base_url: null, profile_id: null, home_hierarchy: null },
    { name: 'AcmeProd', live: true, base_url: 'https://voss.acme.example:8443', profile_id: 'p1', home_hierarchy: null },
    { name: 'OtherProd', live: true, base_url: 'https://voss.other.example', profile_id: 'p2', home_hierarchy: null },
  ],
};

/** Three workbooks: one for AcmeProd, one Local, one for another profile. */
const LISTED = [
  workbookSummary('w1', {
    name: 'tomorrow.xlsx',
    profile: 'AcmeProd',
    checked_against: today('09:40:12.114000'),
    hierarchy: 'sys.hcs.Telco.Acme.Paris',
    state: 'planned',
    counts: { rows: 5250, errors: 0, warnings: 0, rows_with_errors: 0, rows_with_warnings: 0 },
  }),
  workbookSummary('w2', { name: 'local.xlsx' }),
  workbookSummary('w3', { name: 'other.xlsx', profile: 'OtherProd', checked_against: '2026-11-20T08:00:00.000000' }),
];

function transportWith(status: () => SyncStatus): FakeTransport {
  return new FakeTransport()
    .on('GET', '/workstation/workspaces/', { body: WORKSPACES })
    .on('GET', WORKBOOKS, { body: { workbooks: LISTED } })
    .on('GET', SYNC, () => ({ body: status() }));
}

async function showSync(transport: FakeTransport): Promise<Stores> {
  const stores = createStores(transport);
  stores.nav.getState().go({ view: 'sync', profile: 'AcmeProd' });
  render(
    <StoresContext.Provider value={stores}>
      <SyncView />
    </StoresContext.Provider>,
  );
  await act(async () => undefined);
  return stores;
}

/** Push, asked first (it reaches the customer's deployment, named with its address), then said yes to. */
async function pushConfirmed(stores: Stores): Promise<void> {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Push tomorrow.xlsx' }));
  });
  expect(stores.confirm.getState().question).toMatch(/^Push tomorrow\.xlsx to AcmeProd( \(https?:[^)]+\))?\?/);
  await act(async () => {
    stores.confirm.getState().answer(true);
  });
}

const pullButton = (): HTMLButtonElement => screen.getByRole('button', { name: /Pull now|Pulling/ });

describe('sync panel of a remote profile', () => {
  it('says "never pulled", shows busy while the pull runs, then the mirror of its time and its counts', async () => {
    let status = NEVER;
    const transport = transportWith(() => status).on('POST', `${SYNC}pull/`, () => {
      status = { profile: 'AcmeProd', ...PULLED };
      return { body: PULLED };
    });
    await showSync(transport);
    expect(screen.getByTestId('mirror-pulled').textContent).toBe('never pulled');
    expect(screen.queryByRole('table', { name: 'Mirror counts' })).toBeNull();
    // The store is busy from the click on: the answer comes later.
    fireEvent.click(pullButton());
    expect(pullButton().textContent).toBe('Pulling…');
    expect(pullButton().disabled).toBe(true);
    await act(async () => undefined);
    expect(transport.calls.filter((call) => call.method === 'POST' && call.url.startsWith(SYNC)).map((call) => call.url)).toEqual([
      `${SYNC}pull/`,
    ]);
    expect(pullButton().textContent).toBe('Pull now');
    expect(screen.getByTestId('mirror-pulled').textContent).toMatch(labelOf('09:40'));
    const counts = screen.getByRole('table', { name: 'Mirror counts' });
    expect(
      within(counts)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['ModelInstances', 'device/cucm/Phone5,120', 'relation/LineRelation20,040', 'Total25,160']);
  });

  it('shows a failed pull with the fault notice and keeps the last mirror shown', async () => {
    const transport = transportWith(() => ({ profile: 'AcmeProd', ...PULLED })).on(
      'POST',
      `${SYNC}pull/`,
      fault(502, 'remote-unreachable', 'AcmeProd cannot be reached (connect ECONNREFUSED).'),
    );
    await showSync(transport);
    await act(async () => {
      fireEvent.click(pullButton());
    });
    const notice = screen.getByRole('alert');
    expect(notice.getAttribute('data-fault-code')).toBe('remote-unreachable');
    expect(notice.textContent).toContain('AcmeProd cannot be reached');
    expect(screen.getByTestId('mirror-pulled').textContent).toMatch(labelOf('09:40'));
    expect(pullButton().disabled).toBe(false);
  });

  it('asks before a pull that would remove more than a tenth of a model, then pulls with the allowance or keeps the mirror', async () => {
    const bodies: unknown[] = [];
    let status: SyncStatus = { profile: 'AcmeProd', ...PULLED };
    const transport = transportWith(() => status).on('POST', `${SYNC}pull/`, (call) => {
      bodies.push(call.body);
      const allowed = (call.body as { allow_mass_delete?: boolean } | undefined)?.allow_mass_delete === true;
      if (!allowed)
        return {
          status: 409,
          body: {
            success: false,
            http_code: 409,
            code: 'mass-delete',
            message:
              'This pull of AcmeProd would remove more than a tenth of the mirror’s instances of a model (19,990 of 20,040 relation/LineRelation).',
            details: [{ field: 'relation/LineRelation', message: 'would remove 19990 of 20040' }],
          },
        };
      status = { ...status, pulled_at: today('11:05:00.000000'), counts: { 'relation/LineRelation': 50, 'device/cucm/Phone': 5120 } };
      return { body: { ...PULLED, pulled_at: status.pulled_at, counts: status.counts } };
    });
    await showSync(transport);
    await act(async () => {
      fireEvent.click(pullButton());
    });
    // Asked, not failed: the mirror stays shown as it was, and nothing is pulled until the user says.
    const question = screen.getByRole('alertdialog', { name: 'Remove from the mirror?' });
    expect(question.textContent).toContain('relation/LineRelation: would remove 19990 of 20040');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('mirror-pulled').textContent).toMatch(labelOf('09:40'));
    expect(bodies).toEqual([{}]);

    // "Keep the mirror": the question goes, nothing more is sent.
    fireEvent.click(within(question).getByRole('button', { name: 'Keep the mirror' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(bodies).toEqual([{}]);

    // Asked again, and confirmed: the pull goes with the allowance, and the new mirror is shown.
    await act(async () => {
      fireEvent.click(pullButton());
    });
    await act(async () => {
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Pull and remove them' }));
    });
    expect(bodies).toEqual([{}, {}, { allow_mass_delete: true }]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByTestId('mirror-pulled').textContent).toMatch(labelOf('11:05'));
    const counts = screen.getByRole('table', { name: 'Mirror counts' });
    expect(
      within(counts)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toContain('relation/LineRelation50');
  });

  it("lists only the profile's workbooks, with their state, counts and the mirror they were checked against", async () => {
    await showSync(transportWith(() => ({ profile: 'AcmeProd', ...PULLED })));
    const table = screen.getByRole('table', { name: 'Workbooks staged for AcmeProd' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0].textContent).toContain('tomorrow.xlsx');
    expect(rows[0].textContent).toContain('planned');
    expect(rows[0].textContent).toContain('5,250 rows, 0 errors, 0 warnings');
    expect(rows[0].textContent).toContain('checked against the mirror of 09:40');
    expect(table.textContent).not.toContain('local.xlsx');
    expect(table.textContent).not.toContain('other.xlsx');
  });

  it('pushes a workbook and shows the answer: pushed, loaded, failed, kept back, the rows whose plan changed, and a way to resolve them', async () => {
    const answer: SyncPushAnswer = PUSHED;
    // The push pulls the remote's changes first: the status read after it names the new pull.
    let status: SyncStatus = { profile: 'AcmeProd', ...PULLED };
    const transport = transportWith(() => status).on('POST', `${SYNC}push/`, () => {
      status = { ...status, pulled_at: today('11:05:00.000000'), mode: 'changes' };
      return { body: answer };
    });
    const stores = await showSync(transport);
    await pushConfirmed(stores);
    expect(transport.calls.find((call) => call.method === 'POST' && call.url.startsWith(SYNC))).toMatchObject({
      url: `${SYNC}push/`,
      body: { workbook: 'w1' },
    });
    const report = screen.getByRole('status', { name: 'Push of tomorrow.xlsx' });
    expect(report.textContent).toContain('5,240 rows pushed');
    expect(report.textContent).toContain('in remote transaction tx-0b6f');
    expect(report.textContent).toContain('planned again against the mirror of 11:05');
    expect(within(report).getByTestId('push-loaded').textContent).toBe('5,238');
    expect(within(report).getByTestId('push-failed').textContent).toBe('2');
    expect(within(report).getByTestId('push-kept-back').textContent).toBe('10 rows: 9 in conflict, 1 in error');
    const changed = within(report).getByRole('table', { name: 'Changed since the last plan' });
    expect(
      within(changed)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        ),
    ).toEqual([
      ['LineRelation', '9', 'add -> conflict', 'number +33160000007 is Used'],
      ['Phone', '4', 'modify -> add', ''],
    ]);
    expect(screen.getByTestId('mirror-pulled').textContent).toMatch(labelOf('11:05'));
    fireEvent.click(within(report).getByRole('button', { name: 'Resolve in tomorrow.xlsx' }));
    expect(stores.nav.getState().place).toMatchObject({ view: 'workbook', workbookId: 'w1' });
  });

  it("follows a running pull and push by the service's sync events for the profile, and drops another profile's", async () => {
    const transport = new EventTransport()
      .on('GET', '/workstation/workspaces/', { body: WORKSPACES })
      .on('GET', WORKBOOKS, { body: { workbooks: LISTED } })
      .on('GET', SYNC, { body: { profile: 'AcmeProd', ...PULLED } })
      .on('POST', `${SYNC}pull/`, { body: PULLED })
      .on('POST', `${SYNC}push/`, { body: PUSHED });
    const sync = (profile: string, action: 'pull' | 'push', text: string, ended = false): void =>
      act(() => transport.emit({ type: 'sync', profile_id: 'p1', profile, action, text, ended }));
    const stores = await showSync(transport);
    const endPull = transport.hold('POST', `${SYNC}pull/`);
    await act(async () => {
      fireEvent.click(pullButton());
    });
    expect(screen.getByTestId('pull-progress').textContent).toBe("Pulling AcmeProd as the profile's user…");
    sync('AcmeProd', 'pull', 'relation/LineRelation: 40,000');
    sync('OtherProd', 'pull', 'data/User: 2,000');
    expect(screen.getByTestId('pull-progress').textContent).toBe("Pulling AcmeProd as the profile's user: relation/LineRelation: 40,000");
    sync('AcmeProd', 'pull', 'done', true);
    await act(async () => endPull());
    expect(screen.queryByTestId('pull-progress')).toBeNull();

    const endPush = transport.hold('POST', `${SYNC}push/`);
    await pushConfirmed(stores);
    sync('AcmeProd', 'push', 'Processing: [ 4100/5240 ] Row 4101');
    expect(screen.getByTestId('push-progress').textContent).toBe('Pushing tomorrow.xlsx: Processing: [ 4100/5240 ] Row 4101');
    sync('AcmeProd', 'push', 'done', true);
    await act(async () => endPush());
    expect(screen.queryByTestId('push-progress')).toBeNull();
    expect(screen.getByRole('status', { name: 'Push of tomorrow.xlsx' }).textContent).toContain('5,240 rows pushed');
  });

  it('says offline when the remote cannot be reached, which actions need the network, and online again once it answers', async () => {
    let reachable = false;
    const verdict = (): ConnectionTestResult =>
      ({
        success: reachable,
        verdict: reachable ? 'ok' : 'unreachable',
        message: reachable
          ? 'AcmeProd answers.'
          : 'Cannot reach AcmeProd at https://voss.acme.example:8443 (ECONNREFUSED): check the network.',
      }) as ConnectionTestResult;
    const transport = transportWith(() => ({ profile: 'AcmeProd', ...PULLED }))
      .on('POST', '/workstation/remote-profiles/AcmeProd/test/', () => ({ body: verdict() }))
      .on('POST', `${SYNC}pull/`, () =>
        reachable ? { body: PULLED } : fault(502, 'remote-unreachable', 'AcmeProd cannot be reached (connect ECONNREFUSED).'),
      );
    await showSync(transport);
    await act(async () => undefined);
    const notice = screen.getByTestId('sync-reach');
    expect(notice.textContent).toContain('Offline: Cannot reach AcmeProd');
    expect(notice.textContent).toContain('Pull now and Push need the network');
    expect(notice.textContent).toContain('checking and planning it against the mirror of 09:40');
    expect(pullButton().title).toBe('Needs the network: AcmeProd cannot be reached now');
    expect(screen.getByRole('button', { name: 'Push tomorrow.xlsx' }).title).toBe('Needs the network: AcmeProd cannot be reached now');

    // The network back: "Check again" says online, and the buttons lose their warning.
    reachable = true;
    await act(async () => {
      fireEvent.click(within(notice).getByRole('button', { name: 'Check again' }));
    });
    expect(screen.getByTestId('sync-reach').textContent).toContain('Online: AcmeProd answers.');
    expect(pullButton().title).toBe('');

    // Gone again: a pull that cannot reach the remote says offline by itself.
    reachable = false;
    await act(async () => {
      fireEvent.click(pullButton());
    });
    expect(screen.getByTestId('sync-reach').textContent).toContain('Offline: AcmeProd cannot be reached (connect ECONNREFUSED).');
  });

  it('shows a refused push with its fault in the workbook row', async () => {
    const transport = transportWith(() => ({ profile: 'AcmeProd', ...PULLED })).on(
      'POST',
      `${SYNC}push/`,
      fault(409, 'conflict', 'A pull or push of AcmeProd is already running: wait for it to end.'),
    );
    const stores = await showSync(transport);
    await pushConfirmed(stores);
    const table = screen.getByRole('table', { name: 'Workbooks staged for AcmeProd' });
    expect(within(table).getByRole('alert').textContent).toContain('already running');
    expect((screen.getByRole('button', { name: 'Push tomorrow.xlsx' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('stages a file for the profile: uploaded locally, then POSTed with the profile and the remote node typed', async () => {
    const transport = transportWith(() => ({ profile: 'AcmeProd', ...PULLED }))
      .on('POST', '/api/uploadfiles/', { body: { uploadedfiles: [{ name: 'tomorrow.xlsx', id: 'u1' }] } })
      .on('POST', WORKBOOKS, { status: 202, body: { success: true, workbook: LISTED[0] } });
    await showSync(transport);
    fireEvent.change(screen.getByLabelText("Remote hierarchy (empty: the mirror's home)"), {
      target: { value: 'sys.hcs.Telco.Acme.Paris' },
    });
    const bytes = new Uint8Array([80, 75, 3, 4]);
    // jsdom's File has no arrayBuffer(): the browser's does.
    const file = Object.assign(new File([bytes], 'tomorrow.xlsx'), { arrayBuffer: async () => bytes.buffer });
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Open .xlsx file for AcmeProd'), { target: { files: [file] } });
    });
    await act(async () => undefined);
    const upload = transport.calls.find((call) => call.url.startsWith('/api/uploadfiles/'));
    expect(new TextDecoder().decode(upload?.body as Uint8Array)).toContain('filename="tomorrow.xlsx"');
    expect(transport.calls.find((call) => call.method === 'POST' && call.url === WORKBOOKS)?.body).toEqual({
      from: 'upload',
      file: 'tomorrow.xlsx',
      profile: 'AcmeProd',
      hierarchy: 'sys.hcs.Telco.Acme.Paris',
    });
  });
});

describe('a profile workbook in the Workbooks area', () => {
  it('says its profile and mirror, and leads to the Sync panel instead of a Local load', async () => {
    const stores = createStores(transportWith(() => NEVER));
    stores.nav.getState().go({ view: 'workbooks' });
    render(
      <StoresContext.Provider value={stores}>
        <WorkbooksView />
      </StoresContext.Provider>,
    );
    await act(async () => undefined);
    const table = screen.getByRole('table', { name: 'Workbooks' });
    const acme = table.querySelector('[data-workbook="w1"]') as HTMLElement;
    expect(within(acme).getByTestId('workbook-profile').textContent).toBe('for AcmeProd, checked against the mirror of 09:40');
    const local = table.querySelector('[data-workbook="w2"]') as HTMLElement;
    expect(within(local).queryByTestId('workbook-profile')).toBeNull();
    expect(within(local).queryByRole('button', { name: /Sync panel/ })).toBeNull();
    fireEvent.click(within(acme).getByRole('button', { name: 'Push tomorrow.xlsx from the Sync panel' }));
    expect(stores.nav.getState().place).toMatchObject({ view: 'sync', profile: 'AcmeProd' });
  });
});

describe('mirror times and filtering', () => {
  it('says a pull of today by its time, an older one with its date, and never pulled', () => {
    const day = new Date(2026, 10, 26, 15, 0);
    expect(mirrorTime('2026-11-26T09:40:12.114000', day)).toBe('09:40');
    expect(mirrorTime('2026-11-25T23:59:59.000000', day)).toBe('2026-11-25 23:59');
    expect(mirrorText(null, day)).toBe('never pulled');
  });

  it("labels the panel's mirror with its date, time and age", () => {
    const day = new Date(2026, 10, 26, 15, 0);
    expect(mirrorText('2026-11-26T14:59:40.000000', day)).toBe('mirror of 2026-11-26 14:59 (just now)');
    expect(mirrorText('2026-11-26T14:48:00.000000', day)).toBe('mirror of 2026-11-26 14:48 (12 min ago)');
    expect(mirrorText('2026-11-26T09:40:12.114000', day)).toBe('mirror of 2026-11-26 09:40 (5 h 19 min ago)');
    expect(mirrorText('2026-11-24T12:00:00.000000', day)).toBe('mirror of 2026-11-24 12:00 (2 days 3 h ago)');
    expect(mirrorText('2026-11-25T15:00:00.000000', day)).toBe('mirror of 2026-11-25 15:00 (1 day ago)');
  });

  it("keeps a profile's workbooks only", () => {
    expect(workbooksFor(LISTED, 'AcmeProd').map((row) => row.id)).toEqual(['w1']);
    expect(workbooksFor(LISTED, 'Local').map((row) => row.id)).toEqual([]);
  });
});
