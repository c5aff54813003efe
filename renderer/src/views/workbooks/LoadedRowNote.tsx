import type { WorkbookRow } from '../../../../main/service/contract/workbook-api';
import { useStores } from '../../store/stores';
import { useReferenceName } from '../instance/instance-name';

/**
 * Said of the chosen row when it has loaded (issue 29, point 6), before anything is typed on it:
 * the row is the instance it made now, so a change to it is no new add but a modify of that
 * instance, run by the next Load. The service plans it so, and says it again on the row once
 * edited (its `loaded-row-changed` warning).
 */
export function LoadedRowNote({ row, modelType }: { row: WorkbookRow | undefined; modelType: string | null | undefined }) {
  const { nav } = useStores();
  const outcome = row?.outcome;
  const pkid = outcome?.status === 'loaded' ? outcome.pkid : undefined;
  // The instance by its name (the line's number) once read: the pkid says nothing to an engineer.
  const name = useReferenceName(pkid && modelType ? `/api/${modelType}/${pkid}/` : undefined);
  if (!row || !pkid) return null;
  return (
    <p className="loaded-note" data-testid="loaded-note">
      Row {row.row} is loaded: it is {name ?? `instance ${pkid}`}
      {modelType && (
        <>
          {' '}
          (
          <button
            type="button"
            className="link"
            onClick={() => nav.getState().go({ view: 'instance', modelType, href: `/api/${modelType}/${pkid}/` })}
          >
            open it
          </button>
          )
        </>
      )}
      . A change to this row is loaded as a modify of that instance by the next Load.
    </p>
  );
}
