import type { ApiClient, SyncSuccess, TransactionRef } from './api-client';

/**
 * A continuous stream of concurrent writes, as several users (or scripts) would send: each
 * client loops over creates (sync and nowait), updates, deletes and a deliberate duplicate, so
 * the engine's queue is never empty when the process is killed. Every request and what it got
 * back is recorded, so a test can check afterwards that nothing acknowledged was lost.
 */
export type WriteKind = 'create' | 'create-nowait' | 'duplicate' | 'update' | 'update-nowait' | 'delete' | 'delete-nowait';

export interface WriteRecord {
  client: number;
  kind: WriteKind;
  pattern: string;
  /** The instance a write targeted, or the one a sync create made. */
  pkid?: string;
  /** The HTTP status, or 'dropped' when the connection died (the kill). */
  status: number | 'dropped';
  transactionId?: string;
  /** Set on a dropped request that failed before the kill: a real error, not the crash. */
  error?: string;
}

export interface WriteLoad {
  records: WriteRecord[];
  /** Fires `count` nowait creates at once and waits for their 202s: queued work for a kill. */
  burst(count: number): Promise<void>;
  /** Runs the kill as an intended end of the load, then waits for every client to stop. */
  stopWith(kill: () => Promise<unknown>): Promise<WriteRecord[]>;
}

interface Live {
  pkid: string;
  pattern: string;
}

/** The expected status of each kind when the service is up; anything else is a failure. */
export const EXPECTED_STATUS: Record<WriteKind, number> = {
  create: 200,
  'create-nowait': 202,
  duplicate: 409,
  update: 200,
  'update-nowait': 202,
  delete: 200,
  'delete-nowait': 202,
};

/** Which write the n-th iteration of a client sends; a mix that keeps instances alive to touch. */
function kindOf(iteration: number, live: number): WriteKind {
  if (iteration % 5 === 0) return 'create-nowait';
  if (live === 0) return 'create';
  if (iteration % 11 === 4) return 'duplicate';
  if (iteration % 7 === 3) return iteration % 2 ? 'delete' : 'delete-nowait';
  if (iteration % 4 === 1) return iteration % 3 ? 'update' : 'update-nowait';
  return 'create';
}

async function send(api: ApiClient, lines: string, record: WriteRecord, live: Live[], iteration: number): Promise<void> {
  // Spread over the live instances, so some are updated several times and some deleted.
  const target = live.length > 0 ? live[(iteration * 7) % live.length] : undefined;
  const instance = target ? `/api/relation/LineRelation/${target.pkid}/` : '';
  switch (record.kind) {
    case 'create':
    case 'create-nowait': {
      const query = record.kind === 'create' ? '' : '&nowait=true';
      const answer = await api.post<SyncSuccess & TransactionRef>(`${lines}${query}`, {
        data: { pattern: record.pattern, alertingName: `Load ${record.client}` },
      });
      record.status = answer.status;
      record.transactionId = answer.body?.transaction_id;
      if (answer.status === 200) {
        record.pkid = answer.body.pkid;
        live.push({ pkid: answer.body.pkid, pattern: record.pattern });
      }
      return;
    }
    case 'duplicate': {
      record.pattern = target?.pattern ?? record.pattern;
      const answer = await api.post<{ transaction_id?: string }>(lines, { data: { pattern: record.pattern } });
      record.status = answer.status;
      record.transactionId = answer.body?.transaction_id;
      return;
    }
    case 'update':
    case 'update-nowait': {
      record.pkid = target?.pkid;
      const query = record.kind === 'update' ? '' : '?nowait=true';
      const answer = await api.put<TransactionRef>(`${instance}${query}`, { data: { alertingName: `Updated ${record.pattern}` } });
      record.status = answer.status;
      record.transactionId = answer.body?.transaction_id;
      return;
    }
    case 'delete':
    case 'delete-nowait': {
      record.pkid = target?.pkid;
      // Taken out of the live set before sending: a dropped delete may or may not have run.
      live.splice(live.indexOf(target as Live), 1);
      const query = record.kind === 'delete' ? '' : '?nowait=true';
      const answer = await api.delete<TransactionRef>(`${instance}${query}`);
      record.status = answer.status;
      record.transactionId = answer.body?.transaction_id;
      return;
    }
  }
}

/** Starts `clients` loops writing line relations at `hierarchy` until the server dies. */
export function startWriteLoad(api: ApiClient, hierarchy: string, clients: number): WriteLoad {
  const records: WriteRecord[] = [];
  let stopping = false;
  const lines = `/api/relation/LineRelation/?hierarchy=${encodeURIComponent(hierarchy)}`;
  /** Sends one write; false once the connection died. */
  const attempt = async (record: WriteRecord, live: Live[], iteration: number): Promise<boolean> => {
    records.push(record);
    try {
      await send(api, lines, record, live, iteration);
      return true;
    } catch (error) {
      // The kill drops the connection; before the kill a failure is a finding, kept for the test.
      if (!stopping) record.error = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
      return false;
    }
  };
  const loop = async (client: number): Promise<void> => {
    const live: Live[] = [];
    for (let iteration = 1; ; iteration += 1) {
      // Unique per client and iteration; outside the demo inventory, so no number is contested.
      const pattern = `+4970${client}${String(iteration).padStart(6, '0')}`;
      const record: WriteRecord = { client, kind: kindOf(iteration, live.length), pattern, status: 'dropped' };
      if (!(await attempt(record, live, iteration))) return;
    }
  };
  const loops = Array.from({ length: clients }, (_, client) => loop(client));
  return {
    records,
    async burst(count) {
      const sent = Array.from({ length: count }, (_, i) =>
        attempt({ client: clients, kind: 'create-nowait', pattern: `+4979${String(i).padStart(6, '0')}`, status: 'dropped' }, [], i),
      );
      await Promise.all(sent);
    },
    async stopWith(kill) {
      stopping = true;
      await kill();
      await Promise.all(loops);
      return records;
    },
  };
}
