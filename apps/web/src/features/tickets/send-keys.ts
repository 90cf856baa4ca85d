// The Idempotency-Key of a send from the composer (POST /messages/{ticketId}): one per message the
// agent sends. A send that failed keeps its key, so trying the same message again (after a dropped
// connection, when the first try may have reached the server) reuses it and the server answers what it
// stored instead of sending twice; anything else sent is a new key.
export const createSendKeys = () => {
  let pending: { what: string; key: string } | null = null;
  return {
    // The key for sending `what` (a description of the message: text, quote, files).
    keyFor: (what: string) => {
      if (pending?.what !== what) pending = { what, key: newKey() };
      return pending.key;
    },
    // The message went through: the next one is new.
    sent: (key: string) => {
      if (pending?.key === key) pending = null;
    },
  };
};

// 128 random bits as hex. crypto.getRandomValues, not randomUUID: the app may be served over plain
// HTTP on a local network, where randomUUID does not exist.
const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
