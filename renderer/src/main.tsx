import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setFileSaver } from './api/downloads';
import { App } from './App';
import { createStores, StoresContext } from './store/stores';
import { chooseTransport } from './transport/choose-transport';
import type { BridgeLike } from './transport/transport';
import './styles.css';

// The transport is chosen here, once: the shell's bridge when present, else HTTP.
const transport = chooseTransport(window as unknown as { workstation?: BridgeLike });
// Files are saved through the shell's save dialog where the transport has one.
setFileSaver(transport.saveFile);
const stores = createStores(transport);

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <StoresContext.Provider value={stores}>
        <App />
      </StoresContext.Provider>
    </StrictMode>,
  );
}
