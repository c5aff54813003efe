import type { ViewerOpenRequest } from '../../../../main/service/contract/viewer-api';
import { FaultNotice } from '../../components/FaultNotice';
import { useExportViewing } from './export-viewing';

interface ExportButtonsProps {
  /** The export to view or stage; undefined while there is none (no list, no search yet). */
  request?: ViewerOpenRequest;
  /** What the export holds, for the buttons' titles: "the 3 selected lines". */
  what: string;
  /** Why the buttons cannot be used now (a role, a filter the export cannot carry). */
  disabledWhy?: string;
  /** Offer "Edit as workbook" too (it needs the bulkload role). */
  editable?: boolean;
}

/** "View" (the export read-only in the grid) and "Edit as workbook" (staged, in the workbook grid). */
export function ExportButtons({ request, what, disabledWhy, editable = true }: ExportButtonsProps) {
  const { view, editAsWorkbook, staging, fault } = useExportViewing();
  const disabled = !request || disabledWhy !== undefined;
  return (
    <span className="export-buttons">
      <button
        type="button"
        disabled={disabled}
        title={disabledWhy ?? `Open an export of ${what} read-only in a spreadsheet grid`}
        onClick={() => request && view(request)}
      >
        View
      </button>
      {editable && (
        <button
          type="button"
          disabled={disabled || staging}
          title={disabledWhy ?? `Stage ${what} as a workbook to edit, check and load`}
          onClick={() => request && void editAsWorkbook(request)}
        >
          {staging ? 'Staging…' : 'Edit as workbook'}
        </button>
      )}
      {fault && <FaultNotice fault={fault} />}
    </span>
  );
}
