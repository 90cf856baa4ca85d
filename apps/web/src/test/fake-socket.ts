type Handler = (...args: unknown[]) => void;

// A stand-in for a socket.io client socket: records handlers and emits, never touches the network.
export const createFakeSocket = () => {
  const handlers = new Map<string, Set<Handler>>();
  const socket = {
    connected: false,
    io: { opts: { query: {} as Record<string, string> } },
    // What the app emitted, without acknowledgement callbacks (those wait in `acks`).
    emitted: [] as unknown[][],
    acks: [] as { args: unknown[]; ack: Handler }[],
    on: (event: string, handler: Handler) => {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)?.add(handler);
      return socket;
    },
    off: (event: string, handler: Handler) => {
      handlers.get(event)?.delete(handler);
      return socket;
    },
    emit: (...args: unknown[]) => {
      const last = args[args.length - 1];
      const ack = typeof last === 'function' ? (last as Handler) : undefined;
      const sent = ack ? args.slice(0, -1) : args;
      socket.emitted.push(sent);
      if (ack) socket.acks.push({ args: sent, ack });
      return socket;
    },
    // Test helper: the server acknowledges every join so far.
    acknowledge: () => {
      for (const { ack } of socket.acks.splice(0)) ack(true);
    },
    removeAllListeners: () => {
      handlers.clear();
      return socket;
    },
    disconnect: () => {
      socket.connected = false;
      return socket;
    },
    connects: 0,
    connect: () => {
      socket.connects += 1;
      return socket;
    },
    // Test helper: delivers a server event to the registered handlers.
    receive: (event: string, ...args: unknown[]) => {
      handlers.get(event)?.forEach((handler) => handler(...args));
    },
    listenerCount: (event: string) => handlers.get(event)?.size ?? 0,
  };
  return socket;
};

export type FakeSocket = ReturnType<typeof createFakeSocket>;
