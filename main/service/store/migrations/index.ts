import { sql as initial } from './0001-initial';
import { sql as deviceCopy } from './0002-device-copy';
import { sql as uploads } from './0003-uploads';
import { sql as scheduledLoads } from './0004-scheduled-loads';
import { sql as bulkLoads } from './0005-bulk-loads';
import { sql as uploadOwners } from './0006-upload-owners';
import { sql as sessions } from './0007-sessions';
import { sql as remoteProfiles } from './0008-remote-profiles';
import { sql as remoteHome } from './0009-remote-home';
import { sql as logByRow } from './0010-log-by-row';
import { sql as summaryColumn } from './0011-summary-column';
import { sql as packedLogs } from './0012-packed-logs';
import { sql as workbooks } from './0013-workbooks';
import { sql as workbookCountIndexes } from './0014-workbook-count-indexes';
import { sql as mirrorPulls } from './0015-mirror-pulls';
import { sql as workbookProfile } from './0016-workbook-profile';
import { sql as workbookPushes } from './0017-workbook-pushes';
import { sql as workbookRowGaps } from './0018-workbook-row-gaps';
import { sql as transactionChildStatus } from './0019-transaction-child-status';
import { sql as workbookFiles } from './0020-workbook-files';
import { sql as workbookPending } from './0021-workbook-pending';
import { sql as transactionParentScope } from './0022-transaction-parent-scope';
import { sql as mappings } from './0023-mappings';
import { sql as reverts } from './0025-reverts';

/**
 * Numbered migrations, applied in order at open. Append a new file `NNNN-name.ts` exporting
 * `sql` and list it here; never edit one that has shipped: its hash is recorded when applied
 * and an edited one makes the store refuse to open.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'device-copy', sql: deviceCopy },
  { version: 3, name: 'uploads', sql: uploads },
  { version: 4, name: 'scheduled-loads', sql: scheduledLoads },
  { version: 5, name: 'bulk-loads', sql: bulkLoads },
  { version: 6, name: 'upload-owners', sql: uploadOwners },
  { version: 7, name: 'sessions', sql: sessions },
  { version: 8, name: 'remote-profiles', sql: remoteProfiles },
  { version: 9, name: 'remote-home', sql: remoteHome },
  { version: 10, name: 'log-by-row', sql: logByRow },
  { version: 11, name: 'summary-column', sql: summaryColumn },
  { version: 12, name: 'packed-logs', sql: packedLogs },
  { version: 13, name: 'workbooks', sql: workbooks },
  { version: 14, name: 'workbook-count-indexes', sql: workbookCountIndexes },
  { version: 15, name: 'mirror-pulls', sql: mirrorPulls },
  { version: 16, name: 'workbook-profile', sql: workbookProfile },
  { version: 17, name: 'workbook-pushes', sql: workbookPushes },
  { version: 18, name: 'workbook-row-gaps', sql: workbookRowGaps },
  { version: 19, name: 'transaction-child-status', sql: transactionChildStatus },
  { version: 20, name: 'workbook-files', sql: workbookFiles },
  { version: 21, name: 'workbook-pending', sql: workbookPending },
  { version: 22, name: 'transaction-parent-scope', sql: transactionParentScope },
  { version: 23, name: 'mappings', sql: mappings },
  { version: 25, name: 'reverts', sql: reverts },
];
