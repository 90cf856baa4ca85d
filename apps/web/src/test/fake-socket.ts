type Handler = (...args: unknown[]) => void;

// A stand-in for a socket.io client socket: records handlers and emits, never touches the network.
export const createFakeSocket = () => {
  const handlers = new Map<string, Set<Handler>>();
  const socket = {
    connected: false,
    io: { opts: { query: {} as Record<string, string> } },
    emitted: [] as unknown[][],
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
      socket.emitted.push(args);
      return socket;
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
