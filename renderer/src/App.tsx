import { useEffect } from 'react';
import { Loading } from './components/States';
import { useSlice, useStores } from './store/stores';
import { AppFrame } from './views/AppFrame';
import { SignInView } from './views/SignInView';

/** Signed in: the app frame; signed out: the sign-in page; meanwhile, a loading state. */
export function App() {
  const { session } = useStores();
  const state = useSlice('session', (s) => s.state);
  useEffect(() => {
    void session.getState().check();
  }, [session]);
  if (state === 'checking') return <Loading what="the workstation" />;
  if (state === 'signed-out') return <SignInView />;
  return <AppFrame />;
}
