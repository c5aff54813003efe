import { useRef } from 'react';
import { picksFilesItself } from '../../api/upload-file';
import { useStores } from '../../store/stores';

/**
 * "View .xlsx": a local file opened read-only in the export viewer, uploaded at `hierarchy` as a
 * workbook's is, and read by the service for viewing. Never a path from the page: in the desktop
 * shell main's dialog picks the file and uploads it; in browser mode the page's own picker does.
 */
export function ViewFilePick({ hierarchy }: { hierarchy: string }) {
  const { viewer, nav, client } = useStores();
  const picker = useRef<HTMLInputElement>(null);
  const showViewer = (): void => nav.getState().go({ view: 'viewer' });
  const view = async (files: FileList | null): Promise<void> => {
    const file = files?.[0];
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (picker.current) picker.current.value = '';
    showViewer();
    remember(await viewer.getState().openFile(file.name, bytes, hierarchy));
  };
  const remember = (id: string | undefined): void => {
    const place = nav.getState().place;
    if (id && place.view === 'viewer' && !place.viewerId) nav.setState({ place: { ...place, viewerId: id } });
  };
  const pick = async (): Promise<void> => {
    const id = await viewer.getState().pickFile(hierarchy, showViewer);
    // A refused upload is shown where the viewer's faults are.
    if (!id && viewer.getState().fault) showViewer();
    remember(id);
  };
  if (picksFilesItself(client))
    return (
      <button type="button" onClick={() => void pick()}>
        View .xlsx
      </button>
    );
  return (
    <label className="file-pick">
      <span className="button-like">View .xlsx</span>
      <input
        ref={picker}
        type="file"
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        aria-label="View .xlsx file"
        onChange={(event) => void view(event.target.files)}
      />
    </label>
  );
}
