import { useState } from 'react';
import { saveFile } from '../../api/downloads';
import { FaultNotice } from '../../components/FaultNotice';
import type { ExportDataType } from '../../store/search-store';
import { useSlice, useStores } from '../../store/stores';

/** decisions.md "Exports": the search export's `export_data_type` choices. */
const TYPES: { value: ExportDataType; title: string }[] = [
  { value: 'formatted', title: 'Spreadsheet, titles (formatted)' },
  { value: 'raw', title: 'Spreadsheet, field names (raw)' },
  { value: 'json', title: 'JSON' },
];

/** Exports the instances the search found (whole, not only their summary) in the chosen type. */
export function ExportControl() {
  const { search } = useStores();
  const exporting = useSlice('search', (s) => s.exporting);
  const fault = useSlice('search', (s) => s.exportFault);
  const [type, setType] = useState<ExportDataType>('formatted');
  const [saved, setSaved] = useState<string>();
  const run = async () => {
    setSaved(undefined);
    const file = await search.getState().exportResults(type);
    if (file) {
      saveFile(file.bytes, file.fileName, file.type);
      setSaved(file.fileName);
    }
  };
  return (
    <div className="export-control">
      <label>
        Export as{' '}
        <select value={type} onChange={(event) => setType(event.target.value as ExportDataType)}>
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.title}
            </option>
          ))}
        </select>
      </label>
      <button type="button" disabled={exporting} onClick={() => void run()}>
        {exporting ? 'Exporting…' : 'Export results'}
      </button>
      {saved && (
        <span className="muted" role="status">
          Saved {saved}
        </span>
      )}
      {fault && <FaultNotice fault={fault} />}
    </div>
  );
}
