import { z } from 'zod';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  default?: unknown;
};

// Field names whose values a pattern constrains; the generator cannot invent those.
const known: Record<string, unknown> = {
  startTime: '08:00',
  endTime: '18:00',
  phone: '5511999990000'.slice(0, 12),
  color: '#123456',
  from: '5491122223333',
  number: '5491122224444',
  // A connection the walk creates is simulated: no session reaches for WhatsApp's servers.
  provider: 'simulator',
  timeZone: 'America/Bogota',
  newPassword: 'Walker123',
  password: 'Walker123',
  // Single sign-on: a provider's address and the email domains it covers.
  issuer: 'https://sso.walker.invalid',
  domains: ['walker.example'],
  // A reaction: one emoji.
  emoji: '👍',
};

let counter = 0;

export type SampleOptions = {
  // Fill optional fields too (the fuzz wants every field a handler may read).
  everyField?: boolean;
  // Turns each generated string (e.g. into one with a NUL byte, or a huge one).
  mapString?: (value: string) => string;
};

const sample = (schema: JsonSchema, name = '', options: SampleOptions = {}): unknown => {
  const value = plain(schema, name, options);
  return typeof value === 'string' && options.mapString ? options.mapString(value) : value;
};

const plain = (schema: JsonSchema, name: string, options: SampleOptions): unknown => {
  if (name in known) return known[name];
  // Emails are often normalised (trim, lower case) before the check, which hides the format.
  if (name === 'email') return `walker${(counter += 1)}@test.local`;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) {
    const usable = choices.find((o) => o.type !== 'null') ?? choices[0];
    return sample(usable, name, options);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const keys = options.everyField
        ? Object.keys(schema.properties ?? {})
        : (schema.required ?? []);
      for (const key of keys) out[key] = sample(schema.properties?.[key] ?? {}, key, options);
      return out;
    }
    case 'array':
      return Array.from(
        { length: Math.max(schema.minItems ?? 0, options.everyField ? 1 : 0) },
        () => sample(schema.items ?? {}, name, options),
      );
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return false;
    case 'string': {
      counter += 1;
      if (schema.format === 'email') return `walker${counter}@test.local`;
      if (schema.format === 'date-time') return new Date().toISOString();
      return `walker ${counter} ${'x'.repeat(Math.max(0, (schema.minLength ?? 0) - 10))}`.trim();
    }
    default:
      return `walker ${(counter += 1)}`;
  }
};

// A smallest valid value for a route's zod schema, so the walk reaches the handler past validation.
export const sampleInput = (schema: unknown, options: SampleOptions = {}): unknown => {
  if (!schema || !(schema instanceof z.ZodType)) return undefined;
  return sample(
    z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema,
    '',
    options,
  );
};
