import { z } from 'zod';
import { jobQueue } from '../../jobs/queue';

// A document's ingest for one of its versions (knowledge.service.ts queues it, ingest.ts runs it).
export const ingestQueue = jobQueue(
  'knowledge.ingest',
  z.object({
    documentId: z.number().int().positive(),
    version: z.number().int().positive(),
  }),
);
