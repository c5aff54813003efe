import { millis, textTable } from './text-table';
import type { UiOutcome } from './ui-steps';

/**
 * The UI figures beside the API alone for the same requests: "UI share" is the median figure
 * minus the median API time, what the page itself (parsing, React, layout, paint) added.
 */
export function uiReportText(outcome: UiOutcome): string {
  const rows = outcome.figures.map((figure) => [
    figure.title,
    String(figure.samplesMs.length),
    millis(figure.medianMs),
    millis(figure.p90Ms),
    millis(figure.maxMs),
    millis(figure.apiMedianMs),
    millis(figure.medianMs - figure.apiMedianMs),
    figure.targetMs === undefined ? 'information' : `median < ${figure.targetMs} ms`,
    figure.targetMs === undefined ? '' : figure.medianMs < figure.targetMs ? 'PASS' : 'FAIL',
  ]);
  const header = ['UI (headless Chromium)', 'runs', 'median ms', 'p90 ms', 'max ms', 'API alone ms', 'UI share ms', 'target', 'result'];
  const notes = [
    `UI: ${outcome.runs} runs after ${outcome.warmups} warm-up, each on a fresh page; lists of ${outcome.sitePaths[0]}..${outcome.sitePaths.at(-1)} in turn; ` +
      (outcome.wideNode
        ? `${outcome.wideNode.children.toLocaleString('en-US')} children under ${outcome.wideNode.path}.`
        : 'no wide node.'),
    ...(outcome.listSkipped ? [`UI first page not measured: ${outcome.listSkipped}`] : []),
    ...outcome.failures.map((failure) => `UI failed ${failure}`),
  ];
  return [textTable(header, rows, new Set([1, 2, 3, 4, 5, 6])), ...notes].join('\n');
}
