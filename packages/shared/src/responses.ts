import { z } from 'zod';
import { errorStatus, type ErrorCode } from './errors';

// What the API answers (SPEC §7): every route declares its response with these schemas, so the
// OpenAPI document at GET /docs/json shows it and the web's view types come from the same place.
// The JSON a client receives is a schema's input side (`z.input`): a handler may give a Date where
// the client gets ISO 8601 text, and the reply serializer encodes it.

// A moment: ISO 8601 text on the wire; a handler may give a Date or the text itself.
export const dateTime = z
  .codec(
    z.iso.datetime({ offset: true }),
    z.custom<Date | string>((value) => value instanceof Date || typeof value === 'string'),
    {
      decode: (text) => text,
      encode: (value) => (value instanceof Date ? value.toISOString() : value),
    },
  )
  .meta({ type: 'string', format: 'date-time' });

// { error, message, fields?, details? }: the one error body (platform/errors.ts, SPEC §8).
const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];
export const errorResponseSchema = z
  .object({
    error: z.enum(errorCodes),
    message: z.string(),
    // ERR_VALIDATION: the messages of each field that failed ('_' is the whole body).
    fields: z.record(z.string(), z.array(z.string())).optional(),
    // What the screen needs to explain the refusal (e.g. who holds the open ticket).
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: 'An error (SPEC §8 codes)' });

// A 204 carries no body.
export const noContentSchema = z.undefined().describe('No content');

// An action that answers only a sentence to show.
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.input<typeof messageResponseSchema>;

// The `schema.response` of a route: its success status and the error body of every 4xx.
export const okResponse = <T extends z.ZodType>(schema: T) =>
  ({ 200: schema, '4xx': errorResponseSchema }) as const;
export const createdResponse = <T extends z.ZodType>(schema: T) =>
  ({ 201: schema, '4xx': errorResponseSchema }) as const;
export const noContentResponse = { 204: noContentSchema, '4xx': errorResponseSchema } as const;
