import { useEffect, useState, type FormEvent } from 'react';
import type { ConnectionTestResult, RemoteProfileInput } from '../../../main/service/contract/workstation-api';
import { FaultNotice } from '../components/FaultNotice';
import { Empty, Loading } from '../components/States';
import { useSlice, useStores } from '../store/stores';

/** Settings: the remote deployments (profiles) this admin may work live against. */
export function SettingsView() {
  const { profiles } = useStores();
  const list = useSlice('profiles', (s) => s.profiles);
  const vault = useSlice('profiles', (s) => s.vault);
  const loading = useSlice('profiles', (s) => s.loading);
  const fault = useSlice('profiles', (s) => s.fault);
  useEffect(() => {
    void profiles.getState().load();
  }, [profiles]);
  return (
    <section className="settings" aria-label="Settings">
      <h2>Remote deployments</h2>
      {vault?.warning && <p className="vault-warning" role="note">{vault.warning}</p>}
      {vault && !vault.persistent && <p className="muted">Passwords are kept in memory only: enter them again after the workstation restarts.</p>}
      {fault && <FaultNotice fault={fault} />}
      {loading && list.length === 0 ? <Loading what="the remote profiles" /> : <ProfileTable />}
      <AddProfileForm />
    </section>
  );
}

function ProfileTable() {
  const { profiles } = useStores();
  const list = useSlice('profiles', (s) => s.profiles);
  const tests = useSlice('profiles', (s) => s.tests);
  const busy = useSlice('profiles', (s) => s.busy);
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
          <th />
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
            <td>{profile.username}</td>
            <td>{profile.release ?? (profile.release_line ? `${profile.release_line} (detected)` : 'unknown')}</td>
            <td>
              {profile.password_stored ? 'held' : 'not held'}
              <PasswordEntry id={profile.id} name={profile.name} />
            </td>
            <td>
              <button type="button" onClick={() => void profiles.getState().test(profile.id)} disabled={tests[profile.id] === 'running'}>
                Test connection
              </button>{' '}
              <button type="button" disabled={busy} onClick={() => window.confirm(`Delete the remote profile ${profile.name}? Its password is forgotten too.`) && void profiles.getState().remove(profile.id)}>
                Delete
              </button>
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
      <input type="password" aria-label={`New password of ${name}`} autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
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

const EMPTY = { name: '', base_url: '', username: '', password: '', auth_mode: 'session', release: '', ca_pem: '', connect_ms: '', response_ms: '', idle_ms: '' };

function inputOf(form: typeof EMPTY): RemoteProfileInput {
  const timeouts = Object.fromEntries(
    (['connect_ms', 'response_ms', 'idle_ms'] as const).filter((key) => form[key].trim() !== '').map((key) => [key, Number(form[key])]),
  );
  return {
    name: form.name.trim(),
    base_url: form.base_url.trim(),
    username: form.username,
    ...(form.password ? { password: form.password } : {}),
    auth_mode: form.auth_mode === 'basic' ? 'basic' : 'session',
    ...(form.release.trim() ? { release: form.release.trim() } : {}),
    ...(form.ca_pem.trim() ? { ca_pem: form.ca_pem } : {}),
    ...(Object.keys(timeouts).length > 0 ? { timeouts } : {}),
  };
}

function AddProfileForm() {
  const { profiles } = useStores();
  const busy = useSlice('profiles', (s) => s.busy);
  const [form, setForm] = useState(EMPTY);
  const field = (key: keyof typeof EMPTY, label: string, type = 'text', placeholder = '') => (
    <>
      <label htmlFor={`profile-${key}`}>{label}</label>
      <input id={`profile-${key}`} name={key} type={type} placeholder={placeholder} value={form[key]} autoComplete={type === 'password' ? 'new-password' : 'off'} onChange={(event) => setForm({ ...form, [key]: event.target.value })} />
    </>
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The password leaves the form once sent: it is never shown or kept in the page again.
    if (await profiles.getState().add(inputOf(form))) setForm(EMPTY);
    else setForm({ ...form, password: '' });
  };
  return (
    <form className="profile-form" aria-label="Add a remote deployment" onSubmit={(event) => void submit(event)}>
      <h3 style={{ gridColumn: '1 / 3' }}>Add a remote deployment</h3>
      {field('name', 'Name', 'text', 'AcmeProd')}
      {field('base_url', 'Base URL', 'url', 'https://voss.example.com')}
      {field('username', 'User name')}
      {field('password', 'Password', 'password')}
      <label htmlFor="profile-auth_mode">Sign-in</label>
      <select id="profile-auth_mode" name="auth_mode" value={form.auth_mode} onChange={(event) => setForm({ ...form, auth_mode: event.target.value })}>
        <option value="session">Session (recommended)</option>
        <option value="basic">Basic on every request</option>
      </select>
      {field('release', 'Release (empty: detect)', 'text', '21.1')}
      <label htmlFor="profile-ca_pem">CA certificate (PEM, for private TLS)</label>
      <textarea id="profile-ca_pem" name="ca_pem" value={form.ca_pem} onChange={(event) => setForm({ ...form, ca_pem: event.target.value })} />
      {field('connect_ms', 'Connect timeout (ms)', 'number', '5000')}
      {field('response_ms', 'Response timeout (ms)', 'number', '60000')}
      {field('idle_ms', 'Idle timeout (ms)', 'number', '30000')}
      <span />
      <button type="submit" disabled={busy}>
        Add
      </button>
    </form>
  );
}
