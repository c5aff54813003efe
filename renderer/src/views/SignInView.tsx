import { useState } from 'react';
import { FaultNotice } from '../components/FaultNotice';
import { useSlice, useStores } from '../store/stores';
import { useReadyMarker } from './use-ready-marker';

/** Server and browser mode: the session login (the shell signs the local user in itself). */
export function SignInView() {
  const { session } = useStores();
  const busy = useSlice('session', (s) => s.busy);
  const fault = useSlice('session', (s) => s.fault);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  useReadyMarker(true);
  return (
    <main className="sign-in">
      <form
        className="card"
        aria-label="Sign in"
        onSubmit={(event) => {
          event.preventDefault();
          void session.getState().signIn(username, password);
        }}
      >
        <h1>Provisioning Workstation</h1>
        <p className="muted">
          Sign in with your workstation user. On a new data folder the user is admin, with the password printed when the service first
          started.
        </p>
        <label>
          User name
          <input
            name="username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            required
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
        </label>
        {fault && <FaultNotice fault={fault} />}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
