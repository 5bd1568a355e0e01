import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { KioskState, KioskStore } from './store.js';

export const KioskStoreContext = createContext<KioskStore | null>(null);

/**
 * Reads from the kiosk store. Selectors must return stored values (not new objects) so React
 * re-renders only when they change; derived view-models are computed in the component.
 */
export function useKiosk<T>(selector: (s: KioskState) => T): T {
  const store = useContext(KioskStoreContext);
  if (!store) throw new Error('useKiosk outside <KioskStoreContext.Provider>');
  return useStore(store, selector);
}

/** The actions object never changes, so components can take it once. */
export const useActions = () => useKiosk((s) => s.actions);
