import { useEffect, type RefObject } from 'react';
import { FaultNotice } from '../../components/FaultNotice';
import { useSlice, useStores } from '../../store/stores';

/**
 * A search that failed: the fault, and for a malformed query the query as sent with the
 * character at the position the service names marked (and the caret put there).
 */
export function QueryFault({ input }: { input: RefObject<HTMLInputElement | null> }) {
  const { search } = useStores();
  const fault = useSlice('search', (s) => s.fault);
  const position = useSlice('search', (s) => s.faultPosition);
  const sent = useSlice('search', (s) => s.sent?.query);

  useEffect(() => {
    const element = input.current;
    if (!element || position === undefined || sent === undefined || element.value !== sent) return;
    element.focus();
    element.setSelectionRange(position - 1, Math.min(position, sent.length));
  }, [position, sent, input]);

  if (!fault) return null;
  return (
    <div className="query-fault">
      <FaultNotice fault={fault} onRetry={fault.status === 400 ? undefined : () => void search.getState().search()} />
      {position !== undefined && sent !== undefined && (
        <pre className="query-marked" data-testid="query-position" aria-label={`The query, marked at position ${position}`}>
          {sent.slice(0, position - 1)}
          <mark>{sent.slice(position - 1, position) || ' '}</mark>
          {sent.slice(position)}
          {'\n'}
          <span className="query-caret">{`${' '.repeat(position - 1)}^ position ${position}`}</span>
        </pre>
      )}
    </div>
  );
}
