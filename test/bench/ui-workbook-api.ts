import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { WorkbookAnswer, WorkbookInfo, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import type { ProbeMarks } from './ui-page-probe';
import { waves } from './ui-api-baseline';

/** One cell edit as the grid sends it. */
export interface CellEdit {
  rowId: number;
  columnId: number;
  value: string;
}

/**
 * The workbook API from Node with the page's session cookie, over keep-alive connections (six,
 * like Chromium): what a UI figure's requests cost without the UI. An interaction's requests are
 * replayed in the waves the page sent them (`ui-api-baseline.ts` `waves`); the one edit among
 * them (a POST the Resource Timing entry does not tell apart from a GET) is sent as a POST with
 * a body made on the workbook's current revision.
 */
export class WorkbookApi {
  private readonly pool: Pool;

  constructor(
    origin: string,
    private readonly cookie: string,
  ) {
    this.pool = new Pool(origin, { connections: 6 });
    this.csrfToken = /(?:^|; )csrftoken=([^;]*)/.exec(cookie)?.[1] ?? '';
  }

  /** The session's CSRF token (its `csrftoken` cookie), which the page echoes on its writes. */
  private readonly csrfToken: string;

  private headers(json: boolean): Record<string, string> {
    const base = { cookie: this.cookie, 'x-requested-with': 'XMLHttpRequest' };
    return json ? { ...base, 'content-type': 'application/json', 'x-csrftoken': this.csrfToken } : base;
  }

  async json<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const answer = await this.pool.request({
      method,
      path,
      headers: this.headers(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.body.text();
    if (answer.statusCode >= 300) throw new Error(`${method} ${path} answered ${answer.statusCode}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  info(id: string): Promise<WorkbookInfo> {
    return this.json<WorkbookAnswer>('GET', `/workstation/workbooks/${id}/`).then((answer) => answer.workbook);
  }

  async rowIdAt(id: string, index: number): Promise<number> {
    const page = await this.json<WorkbookRowPage>('GET', `/workstation/workbooks/${id}/sheets/0/rows/?skip=${index}&limit=1`);
    if (!page.rows[0]) throw new Error(`workbook ${id} has no row ${index}`);
    return page.rows[0].id;
  }

  /**
   * The interaction's requests from Node, timed: those the page had finished by the figure's
   * mark, in its waves. `edit` is the body of the POST to `edits/` (made on the revision read
   * just before, outside the time).
   */
  async replay(workbookId: string, requests: ProbeMarks['requests'], edit?: CellEdit): Promise<number> {
    const revision = edit ? (await this.info(workbookId)).revision : 0;
    const started = performance.now();
    for (const wave of waves(requests)) {
      await Promise.all(
        wave.map(async (path) => {
          if (!path.endsWith('/edits/')) return void (await this.json('GET', path));
          if (!edit) throw new Error(`an edit (${path}) among requests replayed without its body`);
          await this.json('POST', path, {
            revision,
            edit: { op: 'set', sheet: 0, cells: [{ row_id: edit.rowId, column_id: edit.columnId, value: edit.value }] },
          });
        }),
      );
    }
    return performance.now() - started;
  }

  /**
   * The service's load progress events as a client of the event stream receives them: the time
   * (Node's clock, ms) of each `progress` event, with its transaction, until `stop()`.
   */
  async watchProgressEvents(origin: string): Promise<{ stop(): { at: number; transactionId: string; done: number }[] }> {
    const seen: { at: number; transactionId: string; done: number }[] = [];
    const abort = new AbortController();
    const reply = await fetch(`${origin}/workstation/events/`, { headers: { cookie: this.cookie }, signal: abort.signal });
    if (reply.status !== 200 || !reply.body) throw new Error(`the event stream answered ${reply.status}`);
    const reader = reply.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const pump = async (): Promise<void> => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (!data) continue;
          const event = JSON.parse(data) as { type?: string; transaction_id?: string; done?: number };
          if (event.type === 'progress')
            seen.push({ at: performance.now(), transactionId: event.transaction_id ?? '', done: event.done ?? 0 });
        }
      }
    };
    const pumping = pump().catch(() => undefined);
    return {
      stop: () => {
        abort.abort();
        void pumping;
        return seen;
      },
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
