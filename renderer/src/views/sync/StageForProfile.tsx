import { useRef, useState } from 'react';
import { picksFilesItself } from '../../api/upload-file';
import { FaultNotice } from '../../components/FaultNotice';
import { useSlice, useStores } from '../../store/stores';

/**
 * Stages an .xlsx file for the profile: uploaded here, checked against the mirror (offline), to
 * be fixed in the Workbooks area and pushed from this panel. The remote node is the mirror's
 * home unless one is typed.
 */
export function StageForProfile({ profile }: { profile: string }) {
  const { sync, client } = useStores();
  const shown = useSlice('sync', (s) => s.profile === profile);
  const pulled = useSlice('sync', (s) => Boolean(s.status?.pulled_at));
  const home = useSlice('sync', (s) => s.status?.home_hierarchy ?? undefined);
  const staging = useSlice('sync', (s) => s.staging);
  const fault = useSlice('sync', (s) => s.stageFault);
  // The upload itself goes to the local service, at the user's own node there.
  const uploadHierarchy = useSlice('session', (s) => s.user?.hierarchy) ?? 'sys';
  const [remoteHierarchy, setRemoteHierarchy] = useState('');
  const picker = useRef<HTMLInputElement>(null);

  const stageFile = async (files: FileList | null): Promise<void> => {
    const file = files?.[0];
    if (!file) return;
    await sync.getState().stage({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) }, uploadHierarchy, remoteHierarchy);
    if (picker.current) picker.current.value = '';
  };
  // The service refuses a workbook for a profile with no mirror (mirror-missing): say so before.
  const ready = shown && pulled && staging === undefined;

  return (
    <section className="sync-stage" aria-label={`Stage a workbook for ${profile}`}>
      <h2>Stage a workbook</h2>
      <div className="workbook-sources" role="group" aria-label={`Open a workbook for ${profile}`}>
        {picksFilesItself(client) ? (
          <button
            type="button"
            disabled={!ready}
            onClick={() => void sync.getState().stage('shell-dialog', uploadHierarchy, remoteHierarchy)}
          >
            Open .xlsx file for {profile}
          </button>
        ) : (
          <label className="file-pick">
            <span className="button-like">Open .xlsx file for {profile}</span>
            <input
              ref={picker}
              type="file"
              disabled={!ready}
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              aria-label={`Open .xlsx file for ${profile}`}
              onChange={(event) => void stageFile(event.target.files)}
            />
          </label>
        )}
        <label>
          at{' '}
          <input
            type="text"
            aria-label="Remote hierarchy (empty: the mirror's home)"
            placeholder={home ?? "the mirror's home node"}
            value={remoteHierarchy}
            onChange={(event) => setRemoteHierarchy(event.target.value)}
          />
        </label>
        {shown && !pulled && <span className="muted">Pull the mirror first: a workbook for {profile} is checked against it.</span>}
        {staging && (
          <span className="muted" role="status">
            {staging}
          </span>
        )}
      </div>
      {fault && <FaultNotice fault={fault} />}
    </section>
  );
}
