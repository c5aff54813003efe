import { useSlice } from '../store/stores';
import { FormView } from './FormView';
import { HelpView } from './HelpView';
import { InstanceView } from './InstanceView';
import { ResourcesView } from './ResourcesView';
import { SearchView } from './SearchView';
import { SettingsView } from './SettingsView';
import { SyncView } from './SyncView';
import { TransactionsView } from './TransactionsView';
import { TransactionView } from './TransactionView';
import { ViewerView } from './ViewerView';
import { WorkbooksView } from './WorkbooksView';
import { WorkbookView } from './WorkbookView';

/** The main area shows one view, named by the navigation store. */
export function ViewSwitch() {
  const view = useSlice('nav', (s) => s.place.view);
  switch (view) {
    case 'resources':
      return <ResourcesView />;
    case 'instance':
      return <InstanceView />;
    case 'form':
      return <FormView />;
    case 'workbooks':
      return <WorkbooksView />;
    case 'workbook':
      return <WorkbookView />;
    case 'viewer':
      return <ViewerView />;
    case 'transactions':
      return <TransactionsView />;
    case 'transaction':
      return <TransactionView />;
    case 'search':
      return <SearchView />;
    case 'settings':
      return <SettingsView />;
    case 'sync':
      return <SyncView />;
    case 'help':
      return <HelpView />;
  }
}
