import type { WorkbookInfo } from '../../../../main/service/contract/workbook-api';
import { Loading } from '../../components/States';

/**
 * A workbook just opened that has no grid yet (issue 32, point 1): while the file is read, what
 * is happening; when it was refused, why, where the file was opened, and what to do, with the way
 * back to open another.
 */
export function WorkbookNotOpen({ info, onBack }: { info: WorkbookInfo; onBack: () => void }) {
  if (info.state === 'staging') return <Loading what={`${info.name}: reading the file and checking its rows`} />;
  return (
    <div className="wb-refused" role="alert">
      <h2>{info.name} could not be opened</h2>
      <p>{info.problem ?? 'The file could not be read.'}</p>
      <p className="muted">
        Correct the file in Excel or LibreOffice and open it again, or open another file. Nothing of it was staged or loaded.
      </p>
      <button type="button" className="primary" onClick={onBack}>
        Open another file
      </button>
    </div>
  );
}
