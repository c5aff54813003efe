import { createStore } from 'zustand/vanilla';

/** How a question is put: its dialog's name, and the words on the button that says yes. */
export interface ConfirmOptions {
  label?: string;
  action?: string;
}

export interface ConfirmState {
  /** The question on screen, if any; one at a time. Its first paragraph is the question, the others what it means. */
  question?: string;
  options?: ConfirmOptions;
  /** Shows the question in the app's own dialog; resolves with the user's answer. */
  ask(question: string, options?: ConfirmOptions): Promise<boolean>;
  answer(yes: boolean): void;
}

/**
 * The app's own confirmation dialog for risky calls in a live workspace (tags, bulk loads, and
 * anything not confirmed by a dialog of its own view), and for what cannot be undone or reaches a
 * customer's system (deleting a workbook, a push, Replace all): the browser's native confirm looks like
 * another program's and cannot show the workspace's colour. A question asked while another is
 * open refuses the older one, so no answer goes to the wrong call.
 */
export function createConfirmStore() {
  let settle: ((yes: boolean) => void) | undefined;
  // Answered, the keys go back where they were when it was asked (the Find and replace bar, the
  // list's row): a dialog that leaves the focus on the page's body loses the user's place.
  let opener: HTMLElement | null = null;
  return createStore<ConfirmState>()((set) => ({
    ask(question, options) {
      settle?.(false);
      if (typeof document !== 'undefined' && document.activeElement instanceof HTMLElement) opener = document.activeElement;
      return new Promise<boolean>((resolve) => {
        settle = resolve;
        set({ question, options });
      });
    },
    answer(yes) {
      const done = settle;
      settle = undefined;
      set({ question: undefined, options: undefined });
      const back = opener;
      opener = null;
      if (back?.isConnected) back.focus();
      done?.(yes);
    },
  }));
}

export type ConfirmStore = ReturnType<typeof createConfirmStore>;
