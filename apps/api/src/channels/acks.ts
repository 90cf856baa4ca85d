// Providers report acks out of order and more than once (webhook retries, batched statuses), so an
// ack is a high-water mark: it only moves forward. A failure (0) is the one step back, and only while
// the message has not reached the phone: once delivered, a late failure report is stale.
export const applyAck = (current: number, incoming: number): number => {
  if (incoming === 0) return current < 3 ? 0 : current;
  return Math.max(current, incoming);
};
