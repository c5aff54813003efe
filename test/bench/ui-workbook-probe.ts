/**
 * What the workbook probe records for one interaction, on the page's own clock (performance.now()).
 */
export interface WorkbookMarks {
  /** The key or click event's timeStamp, or the moment the bench scrolled the grid. */
  start: number;
  /** When the condition first held (a MutationObserver callback). */
  shown: number;
  /** The first task after the next animation frame: the change is on screen. */
  painted: number;
  /** The API requests finished since the start (Resource Timing, `/workstation/` and `/api/`, no event stream). */
  requests: { url: string; startTime: number; responseEnd: number }[];
  failure?: string;
}

/** One change of the load's progress bar: when (page clock) and its new value. */
export interface ProgressChange {
  at: number;
  value: number;
  max: number;
}

/**
 * The workbook grid's probe, injected with `addInitScript` beside `ui-page-probe.ts`'s (plain
 * script: the bench is compiled without DOM types). Conditions read the grid's accessible table,
 * the grid's own marks and the live region below the grid (`cell-issues`):
 * - `armPage(name, page)`: the grid holds that page of 200 rows (`.workbook-grid[data-pages]`,
 *   written in the React commit that hands glide the rows; glide draws its canvas in a layout
 *   effect of that same commit);
 * - `armNewRows(name)`: the grid was handed rows read again (`data-version` moved on), as an
 *   edit's answer is followed by a read of the edited row's page with its value and issues;
 * - `armCellIssue(name, cellName)`: the live region reads an error of that cell (e.g. `E90009`).
 * Not glide's accessible table of the visible cells (`tr[aria-rowindex=r + 2]`): glide rebuilds
 * it 200 ms after the last change (a debounce), so it trails the canvas; the bench reads it after
 * each figure (`rowHas`), outside the time, to check that the rows drawn are the right ones.
 * The start is the next click or keydown (capture phase) after arming, or `startNow()`. A
 * figure ends "painted": in the first task after the next animation frame once the condition
 * held, i.e. after the browser drew the frame holding the change.
 *
 * `watchProgress()` records every change of the load's `<progress>` value (the element appears
 * when the load starts) until `progressChanges()` is read.
 */
export const WORKBOOK_PROBE_SCRIPT = String.raw`(() => {
  const probe = { armed: undefined, results: {}, progress: undefined };
  window.__wbBench = probe;
  performance.setResourceTimingBufferSize(20000);
  const afterPaint = (done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(null);
  });
  const requestsSince = (start) => performance.getEntriesByType('resource')
    .filter((entry) => (entry.name.includes('/workstation/') || entry.name.includes('/api/'))
      && !entry.name.includes('/workstation/events/') && entry.startTime >= start - 1)
    .map((entry) => ({ url: entry.name, startTime: entry.startTime, responseEnd: entry.responseEnd }));
  const check = () => {
    const armed = probe.armed;
    if (armed && armed.start !== undefined && armed.shown === undefined && armed.test()) {
      armed.shown = performance.now();
      afterPaint((painted) => {
        probe.armed = undefined;
        probe.results[armed.name] = { start: armed.start, shown: armed.shown, painted, requests: requestsSince(armed.start) };
      });
    }
    const watch = probe.progress;
    if (watch) {
      const bar = document.querySelector('progress[aria-label="Load progress"]');
      if (bar) {
        const value = Number(bar.getAttribute('value'));
        const last = watch.changes[watch.changes.length - 1];
        if (!last || last.value !== value) watch.changes.push({ at: performance.now(), value, max: Number(bar.getAttribute('max')) });
      }
    }
  };
  const arm = (name, test) => {
    delete probe.results[name];
    probe.armed = { name, test, start: undefined, shown: undefined };
  };
  const stamp = (event) => {
    const armed = probe.armed;
    if (armed && armed.start === undefined) { armed.start = event.timeStamp; check(); }
  };
  document.addEventListener('click', stamp, true);
  document.addEventListener('keydown', stamp, true);
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });

  const rowCells = (rowIndex) => document.querySelectorAll('[role="grid"] tr[aria-rowindex="' + (rowIndex + 2) + '"] [role="gridcell"]');
  probe.rowHas = (rowIndex, text, timeoutMs) => new Promise((resolve) => {
    const began = performance.now();
    const poll = () => {
      if ([...rowCells(rowIndex)].some((cell) => cell.textContent === text)) return resolve(true);
      if (performance.now() - began > timeoutMs) return resolve(false);
      setTimeout(poll, 20);
    };
    poll();
  });
  const grid = () => document.querySelector('.workbook-grid[data-version]');
  probe.armPage = (name, page) => arm(name, () => Boolean(grid() && grid().dataset.pages.split(' ').includes(String(page))));
  probe.armNewRows = (name) => {
    const before = grid() ? Number(grid().dataset.version) : -1;
    arm(name, () => Boolean(grid() && Number(grid().dataset.version) > before));
  };
  probe.armCellIssue = (name, cellName) => arm(name, () => [...document.querySelectorAll('[data-testid="cell-issues"] .cell-issue.error strong')]
    .some((strong) => strong.textContent === cellName));
  probe.startNow = () => { if (probe.armed) { probe.armed.start = performance.now(); check(); } };
  probe.watchProgress = () => { probe.progress = { changes: [] }; check(); };
  probe.progressChanges = () => { const changes = probe.progress ? probe.progress.changes : []; probe.progress = undefined; return changes; };
  probe.result = (name, timeoutMs) => new Promise((resolve) => {
    const began = performance.now();
    const poll = () => {
      if (probe.results[name]) return resolve(probe.results[name]);
      if (performance.now() - began > timeoutMs) {
        const armed = probe.armed && probe.armed.name === name ? probe.armed : {};
        return resolve({ start: armed.start, shown: armed.shown, painted: undefined, requests: [],
          failure: name + ': no result within ' + timeoutMs + ' ms (started: ' + (armed.start !== undefined) + ', shown: ' + (armed.shown !== undefined) + ')' });
      }
      setTimeout(poll, 10);
    };
    poll();
  });
})();`;
