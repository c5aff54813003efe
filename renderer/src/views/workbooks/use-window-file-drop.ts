import { useEffect } from 'react';
import { useStores } from '../../store/stores';

/**
 * An .xlsx file dropped anywhere on the window is staged as a workbook at the chosen node (else
 * the user's own), and opens: its grid, its mapping step or why it was refused (the Workbooks
 * area shows meanwhile, with the upload's refusal if there is one). A drop the page handles itself (the
 * Workbooks area's box) is left to it. Without this, a file dropped outside a drop zone is opened
 * by the browser in place of the app (a browser's default; the desktop shell denies the navigation).
 */
export function useWindowFileDrop(): void {
  const { workbooks, nav, hierarchy, session } = useStores();
  useEffect(() => {
    const carriesFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') === true;
    const over = (event: DragEvent): void => {
      if (carriesFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      const handled = event.defaultPrevented;
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (handled || !file || !/\.xlsx$/i.test(file.name)) return;
      const tree = hierarchy.getState();
      const at = (tree.selected ? tree.nodes[tree.selected]?.path : undefined) ?? session.getState().user?.hierarchy ?? 'sys';
      nav.getState().go({ view: 'workbooks' });
      void file
        .arrayBuffer()
        .then((bytes) => workbooks.getState().openFile(file.name, new Uint8Array(bytes), at))
        .then((made) => made && nav.getState().go({ view: 'workbook', workbookId: made.id }));
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [workbooks, nav, hierarchy, session]);
}
