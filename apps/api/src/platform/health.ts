// Whether this node should get traffic (GET /health/ready): a balancer or orchestrator takes a node
// out when its database, Redis or storage stops answering, while it starts, and while it drains
// after SIGTERM (requests in flight finish; new ones go to the other nodes).

type HealthState = 'starting' | 'ready' | 'draining';
type CheckResult = 'ok' | 'failed' | 'timeout';
type Readiness = {
  state: HealthState;
  ready: boolean;
  checks: Record<string, CheckResult>;
  // Why a check failed, for the operator's log (never sent: it may name hosts).
  failures: Record<string, string>;
};

// A dependency's probe: resolves when it answers.
type HealthCheck = () => Promise<unknown>;

export type Health = ReturnType<typeof createHealth>;

export const createHealth = (options: {
  checks: Record<string, HealthCheck>;
  // A probe slower than this counts as failed (an orchestrator's own timeout is a few seconds).
  timeoutMs: number;
}) => {
  let state: HealthState = 'starting';

  const probe = async (check: HealthCheck): Promise<[CheckResult, string?]> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    });
    try {
      const outcome = await Promise.race([check().then(() => 'ok' as const), late]);
      return outcome === 'timeout' ? ['timeout', `no answer in ${options.timeoutMs} ms`] : ['ok'];
    } catch (error) {
      return ['failed', error instanceof Error ? error.message : String(error)];
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    get state() {
      return state;
    },
    // The node serves (its jobs and sessions have started).
    started() {
      if (state === 'starting') state = 'ready';
    },
    // SIGTERM: stop taking new traffic.
    drain() {
      state = 'draining';
    },
    // Every dependency probed at once; ready only when all answer and the node is neither starting
    // nor draining.
    async readiness(): Promise<Readiness> {
      const names = Object.keys(options.checks);
      const results = await Promise.all(names.map((name) => probe(options.checks[name]!)));
      const checks: Record<string, CheckResult> = {};
      const failures: Record<string, string> = {};
      names.forEach((name, i) => {
        const [result, why] = results[i]!;
        checks[name] = result;
        if (why) failures[name] = why;
      });
      const healthy = results.every(([result]) => result === 'ok');
      return { state, ready: state === 'ready' && healthy, checks, failures };
    },
  };
};
