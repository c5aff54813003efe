import { useSlice } from '../../store/stores';
import { ExportButtons } from '../viewer/ExportButtons';

/** View and Edit as workbook for the last search's results: the search export, with the same query and reach. */
export function SearchExportButtons() {
  const sent = useSlice('search', (s) => s.sent);
  const home = useSlice('session', (s) => s.user?.hierarchy);
  const hierarchy = sent?.scope.node ?? home;
  return (
    <ExportButtons
      request={sent && hierarchy ? { from: 'search', query: sent.query, hierarchy, direction: sent.scope.direction } : undefined}
      what="the search results"
    />
  );
}
