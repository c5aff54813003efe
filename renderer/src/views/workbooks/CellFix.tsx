import type { WorkbookIssue } from '../../../../main/service/contract/workbook-api';
import { useSlice, useStores } from '../../store/stores';
import { fixableCount } from '../../store/workbook-issues-store';
import { FixPreview } from './FixPreview';

/**
 * The suggested fixes of the chosen cell's issues: "Apply" sets the cell to the suggestion (one
 * edit, Ctrl+. from the grid does the same); "Apply to all n like it" first lists what each of
 * those cells becomes (FixPreview), and only its "Apply these n changes" has the service apply
 * the suggestion of every issue of that code in that column, in one revision (apply_suggestions).
 */
export function CellFix({ issues, rowId, columnId }: { issues: WorkbookIssue[]; rowId: number | undefined; columnId: number | undefined }) {
  const { workbook } = useStores();
  const counts = useSlice('workbookIssues', (s) => s.counts);
  const fixes = issues.filter((issue) => issue.suggestion !== null);
  if (rowId === undefined || columnId === undefined || fixes.length === 0) return null;
  return (
    <div className="cell-fixes" data-testid="cell-fixes">
      {fixes.map((issue, at) => {
        const like = fixableCount(counts, issue.sheet, issue.code, issue.column_id);
        return (
          <div key={at} className="cell-fix">
            Suggested fix: {issue.suggestion?.label}{' '}
            <button
              type="button"
              title="Ctrl+."
              onClick={() => void workbook.getState().setCell(rowId, columnId, issue.suggestion?.value ?? null)}
            >
              Apply
            </button>
            {like > 1 && (
              <FixPreview
                key={`${issue.code}:${columnId}`}
                code={issue.code}
                columnId={columnId}
                count={like}
                onApply={() => void workbook.getState().applySuggestions(issue.code, columnId)}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
