import type { TransactionDetail } from '../../../../main/service/contract/transaction-api';
import { useStores } from '../../store/stores';
import { useKnownModels } from '../../store/use-model-catalog';
import { useReferenceName } from '../instance/instance-name';
import { durationOf, formatTime, shortId, typeTitle } from './tx-format';

/**
 * Where the resource can be opened: not after a delete, nor after a create that failed (both
 * leave no instance), nor for tools (a bulk load, an export) that have no instance view.
 */
export function resourceLinkOf(detail: TransactionDetail): { modelType: string; href: string } | undefined {
  const resource = detail.resource;
  if (!resource?.pkid || !resource.model_type || /^(tool|view)\//.test(resource.model_type)) return undefined;
  if (detail.action === 'Delete' || (detail.action === 'Create' && detail.status === 'Fail')) return undefined;
  return { modelType: resource.model_type, href: `/api/${resource.model_type}/${resource.pkid}/` };
}

/** The transaction's facts: detail, message, times, user, resource and parent. */
export function TransactionFacts({ detail }: { detail: TransactionDetail }) {
  const { nav } = useStores();
  const link = resourceLinkOf(detail);
  // The resource by its name (a line's number) when it can still be read; its pkid otherwise.
  const name = useReferenceName(link?.href);
  const models = useKnownModels();
  const took = durationOf(detail.started_time ?? detail.submitted_time, detail.completed_time);
  return (
    <div className="card tx-facts">
      <dl className="fields">
        <dt>Detail</dt>
        <dd>{detail.detail || '—'}</dd>
        {detail.status !== 'Fail' && detail.message && (
          <>
            <dt>Message</dt>
            <dd>{detail.message}</dd>
          </>
        )}
        <dt>Rolled back</dt>
        <dd className={detail.rolled_back === 'Yes' ? 'tx-yes' : undefined}>{detail.rolled_back}</dd>
        <dt>Submitted</dt>
        <dd>{formatTime(detail.submitted_time)}</dd>
        <dt>Completed</dt>
        <dd>
          {formatTime(detail.completed_time)}
          {took && <span className="muted"> (took {took})</span>}
        </dd>
        <dt>User</dt>
        <dd>{detail.username || '—'}</dd>
        <dt>Hierarchy</dt>
        <dd>{detail.resource?.hierarchy ?? '—'}</dd>
        <dt>Resource</dt>
        <dd data-testid="transaction-resource">
          {link ? (
            <button
              type="button"
              className="link"
              title={detail.resource?.pkid}
              onClick={() => nav.getState().go({ view: 'instance', ...link })}
            >
              Open {typeTitle(models, link.modelType)} {name ?? <code>{detail.resource?.pkid}</code>}
            </button>
          ) : detail.resource?.pkid ? (
            <span>
              <code>{detail.resource.pkid}</code>
              {detail.action === 'Delete' && <span className="muted"> (deleted)</span>}
              {detail.action === 'Create' && detail.status === 'Fail' && <span className="muted"> (not created)</span>}
            </span>
          ) : (
            '—'
          )}
        </dd>
        {detail.parent_id && (
          <>
            <dt>Part of</dt>
            <dd>
              <button
                type="button"
                className="link"
                onClick={() => nav.getState().go({ view: 'transaction', transactionId: detail.parent_id ?? undefined })}
              >
                Parent transaction <code>{shortId(detail.parent_id)}</code>
              </button>
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
