/** A workbook's sheet as a tab: `#` sheets are marked skipped; `errors` shows their count beside the name. */
export interface SheetTab {
  index: number;
  name: string;
  skipped: boolean;
  title?: string;
  errors?: number;
}

/**
 * A workbook's sheets as tabs in their order, the shown one selected: the staged workbook's grid
 * and the export viewer both show them so. `kind` names the CSS classes (`<kind>-tabs`, `<kind>-tab`).
 */
export function SheetTabs({
  tabs,
  current,
  onShow,
  kind,
}: {
  tabs: SheetTab[];
  current: number;
  onShow: (index: number) => void;
  kind: 'sheet' | 'viewer';
}) {
  return (
    <div className={`${kind}-tabs`} role="tablist" aria-label="Sheets">
      {tabs.map((tab) => (
        <button
          key={tab.index}
          type="button"
          role="tab"
          aria-selected={tab.index === current}
          className={`${kind}-tab${tab.index === current ? ' current' : ''}${tab.skipped ? ' skipped' : ''}`}
          title={tab.title}
          onClick={() => onShow(tab.index)}
        >
          {tab.name}
          {tab.errors !== undefined && tab.errors > 0 && (
            <span className="sheet-error-count" aria-label={`${tab.errors} errors`}>
              {' '}
              {tab.errors}
            </span>
          )}
        </button>
      ))}
    </div>
  );
}
