/**
 * `work` run at most once every `ms`: a call inside the window is folded into one run at its end
 * (so the last call is never lost). `cancel` drops a run still waiting.
 */
export function throttled(work: () => void, ms: number): { call: () => void; cancel: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call() {
      if (timer) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          last = Date.now();
          work();
        },
        Math.max(0, last + ms - Date.now()),
      );
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
