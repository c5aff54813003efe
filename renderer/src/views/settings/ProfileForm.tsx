import { useState, type FormEvent } from 'react';
import type { RemoteProfile, RemoteProfileInput } from '../../../../main/service/contract/workstation-api';

/** What the form holds: text as typed, so a half-typed number is never lost to a conversion. */
export type ProfileFormValues = typeof EMPTY;

export const EMPTY = {
  name: '',
  base_url: '',
  username: '',
  password: '',
  auth_mode: 'session',
  release: '',
  home_hierarchy: '',
  ca_pem: '',
  connect_ms: '',
  response_ms: '',
  idle_ms: '',
};

/**
 * The form's labels by the API's field names: a refusal names fields as the API does (base_url,
 * timeouts.connect_ms), the engineer knows them by these.
 */
export const PROFILE_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  base_url: 'Base URL',
  username: 'User name',
  password: 'Password',
  auth_mode: 'Sign-in',
  release: 'Release',
  home_hierarchy: 'Home hierarchy',
  ca_pem: 'CA certificate',
  'timeouts.connect_ms': 'Connect timeout',
  'timeouts.response_ms': 'Response timeout',
  'timeouts.idle_ms': 'Idle timeout',
};

/** An existing profile in the form; the password field stays empty (passwords never come back). */
export function valuesOf(profile: RemoteProfile): ProfileFormValues {
  return {
    name: profile.name,
    base_url: profile.base_url,
    username: profile.username,
    password: '',
    auth_mode: profile.auth_mode,
    release: profile.release ?? '',
    home_hierarchy: profile.home_hierarchy ?? '',
    ca_pem: profile.ca_pem ?? '',
    connect_ms: String(profile.timeouts.connect_ms),
    response_ms: String(profile.timeouts.response_ms),
    idle_ms: String(profile.timeouts.idle_ms),
  };
}

/**
 * The body of a POST (add) or a PUT (edit). An empty password is not sent: on an edit the held
 * one is kept. An edit that empties the release or the CA sends null, which clears them (the
 * release is then detected, the system's CAs are used, the remote's whoami is asked for the
 * home node); an add just leaves them out.
 */
export function inputOf(form: ProfileFormValues, mode: 'add' | 'edit'): RemoteProfileInput {
  const timeouts = Object.fromEntries(
    (['connect_ms', 'response_ms', 'idle_ms'] as const).filter((key) => form[key].trim() !== '').map((key) => [key, Number(form[key])]),
  );
  const cleared = mode === 'edit' ? null : undefined;
  const release = form.release.trim() || cleared;
  const caPem = form.ca_pem.trim() ? form.ca_pem : cleared;
  const home = form.home_hierarchy.trim() || cleared;
  return {
    name: form.name.trim(),
    base_url: form.base_url.trim(),
    username: form.username,
    ...(form.password ? { password: form.password } : {}),
    auth_mode: form.auth_mode === 'basic' ? 'basic' : 'session',
    ...(release !== undefined ? { release } : {}),
    ...(caPem !== undefined ? { ca_pem: caPem } : {}),
    ...(home !== undefined ? { home_hierarchy: home } : {}),
    ...(Object.keys(timeouts).length > 0 ? { timeouts } : {}),
  };
}

interface ProfileFormProps {
  mode: 'add' | 'edit';
  /** The form's accessible name and heading. */
  title: string;
  initial: ProfileFormValues;
  busy: boolean;
  /** Resolves true when the service took it. */
  onSubmit(input: RemoteProfileInput): Promise<boolean>;
  onCancel?(): void;
}

/** Adding a remote deployment, or changing one: the same fields, the password never shown again once sent. */
export function ProfileForm({ mode, title, initial, busy, onSubmit, onCancel }: ProfileFormProps) {
  const [form, setForm] = useState(initial);
  // Two forms can be on screen (add, and edit): their fields' ids must differ.
  const idOf = (key: string): string => `${mode}-profile-${key}`;
  const field = (key: keyof ProfileFormValues, label: string, type = 'text', placeholder = '') => (
    <>
      <label htmlFor={idOf(key)}>{label}</label>
      <input
        id={idOf(key)}
        name={key}
        type={type}
        placeholder={placeholder}
        value={form[key]}
        autoComplete={type === 'password' ? 'new-password' : 'off'}
        onChange={(event) => setForm({ ...form, [key]: event.target.value })}
      />
    </>
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The password leaves the form once sent: it is never shown or kept in the page again.
    if (await onSubmit(inputOf(form, mode))) setForm(mode === 'add' ? EMPTY : { ...form, password: '' });
    else setForm({ ...form, password: '' });
  };
  return (
    <form className="profile-form" aria-label={title} onSubmit={(event) => void submit(event)}>
      <h2 style={{ gridColumn: '1 / 3' }}>{title}</h2>
      {field('name', PROFILE_LABELS.name, 'text', 'AcmeProd')}
      {field('base_url', PROFILE_LABELS.base_url, 'url', 'https://voss.example.com')}
      {field('username', PROFILE_LABELS.username)}
      {field('password', mode === 'edit' ? 'Password (empty: keep the one held)' : PROFILE_LABELS.password, 'password')}
      <label htmlFor={idOf('auth_mode')}>{PROFILE_LABELS.auth_mode}</label>
      <select
        id={idOf('auth_mode')}
        name="auth_mode"
        value={form.auth_mode}
        onChange={(event) => setForm({ ...form, auth_mode: event.target.value })}
      >
        <option value="session">Session (recommended)</option>
        <option value="basic">Basic on every request</option>
      </select>
      {field('release', 'Release (empty: detect)', 'text', '21.1')}
      {/* Deployments that speak the spec only do not say where the user sits; the live tree starts here then. */}
      {field('home_hierarchy', 'Home hierarchy (empty: ask the remote)', 'text', 'sys.hcs.Telco.Acme')}
      <label htmlFor={idOf('ca_pem')}>CA certificate (PEM, for private TLS)</label>
      <textarea
        id={idOf('ca_pem')}
        name="ca_pem"
        value={form.ca_pem}
        onChange={(event) => setForm({ ...form, ca_pem: event.target.value })}
      />
      {field('connect_ms', 'Connect timeout (ms)', 'number', '5000')}
      {field('response_ms', 'Response timeout (ms)', 'number', '60000')}
      {field('idle_ms', 'Idle timeout (ms)', 'number', '30000')}
      <span />
      <span className="toolbar">
        <button type="submit" className={mode === 'edit' ? 'primary' : undefined} disabled={busy}>
          {mode === 'edit' ? 'Save changes' : 'Add'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </span>
    </form>
  );
}
