import type { FastifyBaseLogger } from 'fastify';

// Periodic background work. A job here keeps no state of its own: it reads what is due from the
// database (tickets waiting too long, schedules past their time…) and claims each row with a
// conditional UPDATE, so it is durable by construction: whatever fell due while no node was running
// is done on the first run after start, and two nodes running the same job never do a row twice.
// Jobs read the time from `new Date()` passed in as `now`, which tests move with a fake clock.

export type Job = {
  name: string;
  // Milliseconds between runs; 0 = only when run() is called (tests, or a kick after a change).
  everyMs: number;
  run: (now: Date) => Promise<void>;
};

export type JobRunner = ReturnType<typeof createJobRunner>;

export const createJobRunner = (options: { log: FastifyBaseLogger }) => {
  const jobs = new Map<string, Job>();
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Map<string, Promise<void>>();
  let started = false;

  // One run of a job at a time per node: runs queue behind each other, so a caller always sees the
  // effect of a run that began after its call.
  const run = (name: string): Promise<void> => {
    const job = jobs.get(name);
    if (!job) return Promise.reject(new Error(`Unknown job ${name}`));
    const next = (running.get(name) ?? Promise.resolve())
      .then(() => job.run(new Date()))
      .catch((error: unknown) => {
        options.log.error({ err: error, job: name }, 'job failed');
      });
    running.set(name, next);
    void next.finally(() => {
      if (running.get(name) === next) running.delete(name);
    });
    return next;
  };

  const schedule = (job: Job) => {
    if (!started || !job.everyMs) return;
    const tick = () => {
      void run(job.name).finally(() => {
        if (started) timers.set(job.name, setTimeout(tick, job.everyMs).unref());
      });
    };
    // The first run right after start: whatever fell due while the process was down.
    timers.set(job.name, setTimeout(tick, 0).unref());
  };

  return {
    register(job: Job) {
      jobs.set(job.name, job);
      schedule(job);
    },
    run,
    start() {
      started = true;
      for (const job of jobs.values()) schedule(job);
    },
    // Resolves when the runs in progress, and the first runs start() scheduled, are done (main.ts
    // prints its banner after them, so start-up work does not log below it).
    async idle() {
      // The first runs' zero-delay timers were set before this one, so they have fired when it does.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await Promise.all([...running.values()]);
    },
    async stop() {
      started = false;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.all([...running.values()].map((p) => p.catch(() => undefined)));
    },
  };
};
