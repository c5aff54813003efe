/**
 * What the in-page probe records, all on the page's own clock (performance.now(), whose origin
 * is the navigation start), so no Playwright round trip is inside a figure.
 */
export interface ProbeMarks {
  /** When the interaction began: 0 for the start, else the click or key event's timeStamp. */
  start: number;
  /** Named moments, each the first time its condition held after the start. */
  marks: Record<string, number>;
  /** The same moments after the next frame was painted. */
  painted: Record<string, number>;
  /** Why the probe stopped without all its marks (a list in error, a timeout). */
  failure?: string;
  /** The API requests finished since the start (Resource Timing); each figure keeps those done by its mark. */
  requests: { url: string; startTime: number; responseEnd: number }[];
}

/**
 * The probe, injected with `addInitScript` before the app's own code runs. It is a plain script
 * (the bench is compiled without DOM types): a MutationObserver over the whole document checks
 * the armed conditions after every batch of DOM changes, and a click or key event in capture
 * phase stamps the start of the armed interaction. "Painted" is taken in the first task after the
 * next animation frame, i.e. once the browser has drawn the change.
 *
 * Conditions (the tests hooks of the UI brief, nothing else):
 * - `ready`: `#root[data-app-state="ready"]`, armed from the navigation start;
 * - `expand`: for a tree path P, `firstChild` when a treeitem under P exists, `allLoaded` when
 *   the tree's scroll height holds P's expected child count of rows;
 * - `list`: `firstPage` when the resource table is `ready` with rows and either went through
 *   `loading` since the start or shows another first row than before it.
 */
export const PROBE_SCRIPT = String.raw`(() => {
  const probe = { armed: undefined, results: {} };
  window.__uiBench = probe;
  performance.setResourceTimingBufferSize(10000);
  const afterPaint = (done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(null);
  });
  const newRecord = (start) => ({ start, marks: {}, painted: {}, requests: [] });
  const finish = (name, record) => {
    record.requests = performance.getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/api/') && entry.startTime >= record.start - 1)
      .map((entry) => ({ url: entry.name, startTime: entry.startTime, responseEnd: entry.responseEnd }));
    probe.results[name] = record;
  };
  const mark = (armed, key) => {
    if (armed.record.marks[key] !== undefined) return;
    armed.record.marks[key] = performance.now();
    afterPaint((time) => {
      armed.record.painted[key] = time;
      if (armed.keys.every((k) => armed.record.painted[k] !== undefined) && probe.armed === armed) {
        probe.armed = undefined;
        finish(armed.name, armed.record);
      }
    });
  };
  const check = () => {
    const armed = probe.armed;
    if (!armed || armed.record.start === undefined) return;
    for (const [key, test] of Object.entries(armed.tests)) if (test()) mark(armed, key);
    if (armed.failed && armed.failed()) {
      armed.record.failure = armed.failed();
      probe.armed = undefined;
      finish(armed.name, armed.record);
    }
  };
  const arm = (name, tests, failed, start) => {
    probe.armed = { name, tests, failed, keys: Object.keys(tests), record: newRecord(start) };
    delete probe.results[name];
    check();
  };
  const stamp = (event) => {
    const armed = probe.armed;
    if (armed && armed.record.start === undefined) armed.record.start = event.timeStamp;
  };
  document.addEventListener('click', stamp, true);
  document.addEventListener('keydown', stamp, true);
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });

  const escape = (text) => CSS.escape(text);
  const treeItem = (path) => document.querySelector('[role="treeitem"][data-path="' + escape(path) + '"]');
  probe.armExpand = (path, expected) => arm('expand', {
    firstChild: () => Boolean(document.querySelector('[role="treeitem"][data-path^="' + escape(path + '.') + '"]')),
    allLoaded: () => {
      const row = treeItem(path);
      const tree = document.querySelector('[role="tree"]');
      return Boolean(row && tree && row.offsetHeight > 0 && tree.scrollHeight >= (expected + 1) * row.offsetHeight);
    },
  }, undefined, undefined);
  const table = () => document.querySelector('[data-testid="resource-table"]');
  const firstRowPkid = () => {
    const row = table() && table().querySelector('[role="row"][data-pkid]');
    return row ? row.getAttribute('data-pkid') : null;
  };
  probe.armList = () => {
    const before = firstRowPkid();
    let sawLoading = false;
    arm('list', {
      firstPage: () => {
        const state = table() && table().getAttribute('data-list-state');
        if (state === 'loading') sawLoading = true;
        const first = firstRowPkid();
        return state === 'ready' && first !== null && (sawLoading || first !== before);
      },
    }, () => {
      const state = table() && table().getAttribute('data-list-state');
      return state === 'error' || state === 'empty' ? 'the resource table went ' + state : undefined;
    }, undefined);
  };
  probe.firstRowPkid = firstRowPkid;
  probe.result = (name, timeoutMs) => new Promise((resolve) => {
    const began = performance.now();
    const poll = () => {
      if (probe.results[name]) return resolve(probe.results[name]);
      if (performance.now() - began > timeoutMs) {
        const record = (probe.armed && probe.armed.name === name) ? probe.armed.record : newRecord(undefined);
        record.failure = 'no result within ' + timeoutMs + ' ms (marks: ' + JSON.stringify(record.marks) + ')';
        return resolve(record);
      }
      setTimeout(poll, 20);
    };
    poll();
  });
  arm('ready', { ready: () => { const root = document.getElementById('root'); return Boolean(root && root.dataset.appState === 'ready'); } }, undefined, 0);
})();`;
