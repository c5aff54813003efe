import { createStore } from 'zustand/vanilla';

export interface ConfirmState {
  /** The question on screen, if any; one at a time. */
  question?: string;
  /** Shows the question in the app's own dialog; resolves with the user's answer. */
  ask(question: string): Promise<boolean>;
  answer(yes: boolean): void;
}

/**
 * The app's own confirmation dialog for risky calls in a live workspace (tags, bulk loads, and
 * anything not confirmed by a dialog of its own view): the browser's native confirm looks like
 * another program's and cannot show the workspace's colour. A question asked while another is
 * open refuses the older one, so no answer goes to the wrong call.
 */
export function createConfirmStore() {
  let settle: ((yes: boolean) => void) | undefined;
  return createStore<ConfirmState>()((set) => ({
    ask(question) {
      settle?.(false);
      return new Promise<boolean>((resolve) => {
        settle = resolve;
        set({ question });
      });
    },
    answer(yes) {
      const done = settle;
      settle = undefined;
      set({ question: undefined });
      done?.(yes);
    },
  }));
}

export type ConfirmStore = ReturnType<typeof createConfirmStore>;
