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
  newPassword: 'Walker123',
  password: 'Walker123',
};

let counter = 0;

const sample = (schema: JsonSchema, name = ''): unknown => {
  if (name in known) return known[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) {
    const usable = options.find((o) => o.type !== 'null') ?? options[0];
    return sample(usable, name);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? [])
        out[key] = sample(schema.properties?.[key] ?? {}, key);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}, name));
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
export const sampleInput = (schema: unknown): unknown => {
  if (!schema || !(schema instanceof z.ZodType)) return undefined;
  return sample(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
};
