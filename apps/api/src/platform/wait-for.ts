// A service starting beside the API (compose starts them together): `attempt` is tried every second
// until it succeeds, a failure `isTransient` does not excuse, or a minute has passed. The operator
// is told once what the start waits for.
const WAIT_MS = 60_000;

export const waitForService = async (
  what: string,
  attempt: () => Promise<unknown>,
  isTransient: (error: unknown) => boolean = () => true,
) => {
  const deadline = Date.now() + WAIT_MS;
  for (let told = false; ;) {
    try {
      await attempt();
      return;
    } catch (error) {
      if (!isTransient(error) || Date.now() > deadline) throw error;
      if (!told) {
        told = true;
        process.stderr.write(`Waiting for ${what} (${(error as Error).message})…\n`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
};
