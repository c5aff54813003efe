import { useEffect, useState } from 'react';
import { useSlice, useStores } from '../../store/stores';
import { durationText, keepSamples, loadFigures, type ProgressSample } from './load-rate';

/** Said below the grid when loaded rows were edited since (the head keeps its size: clicks land where they did). */
export function ChangedSinceLoad() {
  const changed = useSlice('workbook', (s) => s.info?.load?.changed ?? 0);
  if (changed === 0) return null;
  return (
    <p className="muted load-changed" data-testid="load-changed">
      {changed.toLocaleString()} loaded {changed === 1 ? 'row' : 'rows'} changed since: Load modifies{' '}
      {changed === 1 ? 'its instance' : 'their instances'}.
    </p>
  );
}

/**
 * The workbook's load: a bar of its rows (loaded, failed and conflicting against all), and while
 * it runs the rows done, rows per second and time left, fed by the load's `progress` events
 * (one per batch), with Cancel: the service stops the load after its current batch, the rows
 * that ran stay loaded and the others can be loaded later.
 */
export function LoadProgress() {
  const { client } = useStores();
  const load = useSlice('workbook', (s) => s.info?.load ?? null);
  const id = useSlice('workbook', (s) => s.id);
  const [samples, setSamples] = useState<ProgressSample[]>([]);
  const [canceling, setCanceling] = useState(false);
  const transactionId = load?.transaction_id;

  useEffect(() => {
    setSamples([]);
    setCanceling(false);
    if (!transactionId) return undefined;
    return client.transport.onEvent?.((event) => {
      if (event.type !== 'progress' || event.transaction_id !== transactionId) return;
      setSamples((kept) => keepSamples(kept, { at: performance.now(), done: event.done, total: event.total }));
    });
  }, [client, transactionId]);

  if (!load) return null;
  const figures = load.running ? loadFigures(samples) : undefined;
  // While it runs, the bar moves with each batch's event (the workbook itself is read again only
  // every second or so). A run covers the rows not loaded before it (all, or a retry's failed
  // ones): those before it are the workbook's rows less the run's.
  const counted = load.loaded + load.failed + load.conflicts;
  const latest = load.running ? samples[samples.length - 1] : undefined;
  const moved = latest ? load.total - latest.total + latest.done : 0;
  const barValue = Math.min(load.total, Math.max(counted, moved));
  const cancel = async (): Promise<void> => {
    if (!id) return;
    setCanceling(true);
    try {
      await client.send('POST', `/workstation/workbooks/${encodeURIComponent(id)}/load/cancel/`, {});
    } catch {
      // The load ended meanwhile (409 not-loading): the workbook's event brings its state.
      setCanceling(false);
    }
  };
  return (
    <span className="load-progress" data-testid="load-progress">
      {/* What is in the store already (a duplicate of a loaded workbook starts so), said without widening the head. */}
      <progress
        aria-label="Load progress"
        max={load.total}
        value={barValue}
        title={`${load.loaded.toLocaleString()} of ${load.total.toLocaleString()} loaded`}
        aria-valuetext={`${load.loaded.toLocaleString()} of ${load.total.toLocaleString()} loaded`}
      />
      {load.running && (
        <>
          <span className="muted" data-testid="load-figures" aria-live="polite">
            {figures ? `${figures.done.toLocaleString()} of ${figures.total.toLocaleString()} rows` : 'starting'}
            {figures?.rowsPerSecond !== undefined && `, ${Math.round(figures.rowsPerSecond).toLocaleString()} rows/s`}
            {figures?.secondsLeft !== undefined && `, ${durationText(figures.secondsLeft)} left`}
          </span>
          <button type="button" disabled={canceling} onClick={() => void cancel()}>
            {canceling ? 'Canceling…' : 'Cancel load'}
          </button>
        </>
      )}
    </span>
  );
}
