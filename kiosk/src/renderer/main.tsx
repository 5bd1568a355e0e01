import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browserDeps, createAgentApi } from './api-client.js';
import { App } from './app.js';
import { createKioskStore } from './store/store.js';
import { KioskStoreContext } from './store/use-kiosk.js';
import './styles.css';

// The agent serves this page, so its origin is the agent (ARCHITECTURE #9); nothing else is contacted.
const deps = browserDeps();
const store = createKioskStore({ api: createAgentApi(window.location.origin, deps), schedule: deps.schedule, notesDebounceMs: 800 });
store.getState().actions.connect();

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <KioskStoreContext.Provider value={store}>
      <App />
    </KioskStoreContext.Provider>
  </StrictMode>,
);
