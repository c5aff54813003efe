import { useEffect, useState, type FormEvent } from 'react';
import type { ConnectionTestResult, RemoteProfile, RemoteProfileInput } from '../../../main/service/contract/workstation-api';
import { FaultNotice } from '../components/FaultNotice';
import { Empty, Loading } from '../components/States';
import { useSlice, useStores } from '../store/stores';
import { EMPTY, PROFILE_LABELS, ProfileForm, valuesOf } from './settings/ProfileForm';

/** Settings: the remote deployments (profiles) this admin may work live against. */
export function SettingsView() {
  const { profiles } = useStores();
  const list = useSlice('profiles', (s) => s.profiles);
  const vault = useSlice('profiles', (s) => s.vault);
  const loading = useSlice('profiles', (s) => s.loading);
  const fault = useSlice('profiles', (s) => s.fault);
  const [editingId, setEditingId] = useState<string>();
  const editing = list.find((profile) => profile.id === editingId);
  const setEditing = (profile: RemoteProfile | undefined): void => setEditingId(profile?.id);
  useEffect(() => {
    void profiles.getState().load();
  }, [profiles]);
  return (
    <section className="settings" aria-label="Settings">
      <h1 className="view-title">Remote deployments</h1>
      {vault?.warning && (
        <p className="vault-warning" role="note">
          {vault.warning}
        </p>
      )}
      {vault && !vault.persistent && (
        <p className="muted">Passwords are kept in memory only: enter them again after the workstation restarts.</p>
      )}
      {fault && <FaultNotice fault={fault} fields={PROFILE_LABELS} summary="The remote deployment was not saved: correct these fields." />}
      {loading && list.length === 0 ? <Loading what="the remote profiles" /> : <ProfileTable onEdit={setEditing} />}
      {editing ? <EditProfileForm profile={editing} onDone={() => setEditing(undefined)} /> : <AddProfileForm />}
    </section>
  );
}

function ProfileTable({ onEdit }: { onEdit(profile: RemoteProfile): void }) {
  const { profiles, nav } = useStores();
  const list = useSlice('profiles', (s) => s.profiles);
  const tests = useSlice('profiles', (s) => s.tests);
  const busy = useSlice('profiles', (s) => s.busy);
  // The app's own confirmation, in the row, as the other deletes ask: never the browser's dialog.
  const [deleting, setDeleting] = useState<string>();
  if (list.length === 0) return <Empty title="No remote deployments yet">Add one below to work live against a customer's system.</Empty>;
  return (
    <table aria-label="Remote profiles">
      <thead>
        <tr>
          <th>Name</th>
          <th>Address</th>
          <th>User</th>
          <th>Release</th>
          <th>Password</th>
          <th>
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {list.map((profile) => (
          <tr key={profile.id} data-profile={profile.name}>
            <td>{profile.name}</td>
            <td>
              {profile.base_url}
              {profile.ca_pem ? ' (private CA)' : ''}
            </td>
            <td>
              {profile.username}
              {profile.home_hierarchy && <div className="muted">home {profile.home_hierarchy}</div>}
            </td>
            <td>{profile.release ?? (profile.release_line ? `${profile.release_line} (detected)` : 'unknown')}</td>
            <td>
              {profile.password_stored ? 'held' : 'not held'}
              <PasswordEntry id={profile.id} name={profile.name} />
            </td>
            <td>
              <button type="button" onClick={() => void profiles.getState().test(profile.id)} disabled={tests[profile.id] === 'running'}>
                Test connection
              </button>{' '}
              {/* The profile's mirror and the workbooks staged for it: pull before going offline, push once back. */}
              <button
                type="button"
                aria-label={`Sync ${profile.name}`}
                onClick={() => nav.getState().go({ view: 'sync', profile: profile.name })}
              >
                Sync
              </button>{' '}
              <button type="button" disabled={busy} onClick={() => onEdit(profile)}>
                Edit
              </button>{' '}
              <button type="button" disabled={busy} onClick={() => setDeleting(profile.id)}>
                Delete
              </button>
              {deleting === profile.id && (
                <div className="res-inline danger-zone" role="alertdialog" aria-label={`Confirm deleting ${profile.name}`}>
                  <span>Delete the remote profile {profile.name}? Its password is forgotten too.</span>
                  <button
                    type="button"
                    className="danger"
                    autoFocus
                    onClick={() => {
                      setDeleting(undefined);
                      void profiles.getState().remove(profile.id);
                    }}
                  >
                    Delete {profile.name}
                  </button>
                  <button type="button" onClick={() => setDeleting(undefined)}>
                    Cancel
                  </button>
                </div>
              )}
              <TestResult result={tests[profile.id]} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A new password for a profile: after a restart of server mode, or when it changed on the remote. */
function PasswordEntry({ id, name }: { id: string; name: string }) {
  const { profiles } = useStores();
  const busy = useSlice('profiles', (s) => s.busy);
  const [password, setPassword] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password === '') return;
    await profiles.getState().setPassword(id, password);
    setPassword('');
  };
  return (
    <form className="password-entry" aria-label={`Password of ${name}`} onSubmit={(event) => void submit(event)}>
      <input
        type="password"
        aria-label={`New password of ${name}`}
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <button type="submit" disabled={busy || password === ''}>
        Set
      </button>
    </form>
  );
}

function TestResult({ result }: { result: ConnectionTestResult | 'running' | undefined }) {
  if (result === undefined) return null;
  if (result === 'running') return <p className="test-result">Testing…</p>;
  return (
    <p className={`test-result ${result.success ? 'ok' : 'failed'}`} role="status" data-verdict={result.verdict}>
      {result.message}
    </p>
  );
}

function AddProfileForm() {
  const { profiles } = useStores();
  const busy = useSlice('profiles', (s) => s.busy);
  return (
    <ProfileForm
      mode="add"
      title="Add a remote deployment"
      initial={EMPTY}
      busy={busy}
      onSubmit={(input) => profiles.getState().add(input)}
    />
  );
}

/** Changing a profile (PUT): any field, a new password only if typed; keyed by the profile so it starts from its values. */
function EditProfileForm({ profile, onDone }: { profile: RemoteProfile; onDone(): void }) {
  const { profiles } = useStores();
  const busy = useSlice('profiles', (s) => s.busy);
  const save = async (input: RemoteProfileInput): Promise<boolean> => {
    const saved = await profiles.getState().update(profile.id, input);
    if (saved) onDone();
    return saved;
  };
  return (
    <ProfileForm
      key={profile.id}
      mode="edit"
      title={`Edit ${profile.name}`}
      initial={valuesOf(profile)}
      busy={busy}
      onSubmit={save}
      onCancel={onDone}
    />
  );
}
