import { z } from 'zod';
import { defineRoutes } from '../contract';
import { auditPageSchema, auditQuerySchema } from '../audit';
import { errorResponseSchema, okResponse } from '../responses';

// Issue 37: the audit log, read (never written) through the API.
export const auditContract = defineRoutes('audit', {
  listAudit: {
    method: 'GET',
    path: '/audit',
    summary: "Read the company's audit log, newest first",
    query: auditQuerySchema,
    response: okResponse(auditPageSchema),
  },
  downloadAudit: {
    method: 'GET',
    path: '/audit.csv',
    summary: 'Download the audit log entries the filters select (up to 50,000) as CSV',
    query: auditQuerySchema.omit({ pageNumber: true }),
    response: {
      200: {
        description: 'The entries, newest first',
        content: {
          'text/csv': {
            schema: z
              .string()
              .describe('createdAt;actor;userId;companyId;action;target;address;detail'),
          },
        },
      },
      '4xx': errorResponseSchema,
    },
  },
});
