import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { KnowledgeDocument } from '@atendi/shared';
import { inject, type Session } from './harness';
import { eventually } from './eventually';
import { multipart } from './multipart';

// A text document added to the company's knowledge base through its API, answered once its
// passages are stored (the ingest job ran; the test app's fake OpenAI server embeds them).
export const knowledgeDocument = async (
  app: FastifyInstance,
  session: Session,
  fileName: string,
  text: string,
) => {
  const form = multipart({}, [
    { field: 'file', name: fileName, type: 'text/plain', data: Buffer.from(text) },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/knowledge/documents',
    headers: { authorization: `Bearer ${session.token}`, ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  const { id } = res.json() as KnowledgeDocument;
  return eventually(
    async () =>
      (await inject(app, session, 'GET', `/knowledge/documents/${id}`)).json() as KnowledgeDocument,
    (doc) => doc.status === 'ready' || doc.status === 'failed',
    `the document ${fileName} read`,
    // Read by a background job: a busy machine may take a while.
    { timeoutMs: 20_000 },
  ).then((doc) => {
    expect(doc.status, doc.error ?? '').toBe('ready');
    return doc;
  });
};
