import { useState } from 'react';
import type { ViewerOpenRequest } from '../../../../main/service/contract/viewer-api';
import { asFault, type ApiFault } from '../../api/fault';
import { stageWorkbook } from '../../store/stage-workbook';
import { useStores } from '../../store/stores';

/**
 * What the export buttons of Resources, Search and an instance do with an export: view it
 * read-only (the viewer opens at once and says what it reads), or stage it as a workbook and
 * open that in the workbook grid.
 */
export function useExportViewing() {
  const { nav, viewer, client } = useStores();
  const [staging, setStaging] = useState(false);
  const [fault, setFault] = useState<ApiFault | undefined>();

  const view = (request: ViewerOpenRequest): void => {
    nav.getState().go({ view: 'viewer' });
    void viewer
      .getState()
      .open(request)
      .then((id) => {
        // The place names the viewer once it exists, without a history entry of its own, so Back leaves it.
        const place = nav.getState().place;
        if (id && place.view === 'viewer' && !place.viewerId) nav.setState({ place: { ...place, viewerId: id } });
      });
  };

  const editAsWorkbook = async (request: ViewerOpenRequest): Promise<void> => {
    setStaging(true);
    setFault(undefined);
    try {
      nav.getState().go({ view: 'workbook', workbookId: await stageWorkbook(client, request) });
    } catch (error) {
      setFault(asFault(error));
    } finally {
      setStaging(false);
    }
  };

  return { view, editAsWorkbook, staging, fault };
}
