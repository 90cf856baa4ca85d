import { z } from 'zod';
import { jobQueue } from '../../jobs/queue';

// One delivery of an event to an endpoint (webhook_deliveries' id), keyed by endpoint and what the
// event is about: a ticket's deliveries reach an endpoint one after another, in the order they happened.
export const webhookDeliveryQueue = jobQueue(
  'webhook.deliver',
  z.object({ deliveryId: z.number().int().positive() }),
);
