// Calls that arrive while a run is in flight wait for it and go together in the next one: one round
// trip and one commit for all of them instead of one each. One arriving alone goes at once, so a
// quiet system waits for nothing. `run` answers each item's result in the order given; when it
// throws, every call of that run rejects with the error.
export const groupCommit = <T, R>(run: (items: T[]) => Promise<R[]>) => {
  let waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        const results = await run(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i]));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    running = false;
  };
  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void drain();
    });
};
