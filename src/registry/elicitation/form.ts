/**
 * The form of an MCP `elicitation/create` request (form mode): its flat `requestedSchema` turned into
 * fields a prompt can ask one by one, and each typed answer checked and converted against its field.
 * Shared by the CLI's terminal prompt and the editor's quick picks, so both accept the same answers.
 */

interface FieldBase {
  /** Property name in the answer's `content`. */
  name: string;
  /** What the prompt shows: the schema's title, else the name. */
  label: string;
  description?: string;
  required: boolean;
}

/** One option of a single or multiple choice. */
export interface ChoiceOption {
  value: string;
  label: string;
}

/** One question of the form. `default` is the schema's default, pre-filled by prompts. */
export type FormField =
  | (FieldBase & { kind: 'text'; default?: string; format?: string; minLength?: number; maxLength?: number })
  | (FieldBase & { kind: 'number'; integer: boolean; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'choice'; options: ChoiceOption[]; default?: string })
  | (FieldBase & { kind: 'multi'; options: ChoiceOption[]; default?: string[]; minItems?: number; maxItems?: number });

/** An answer check: the converted value (undefined = leave the field out), or why the text is refused. */
export type FieldAnswer = { ok: true; value: unknown } | { ok: false; error: string };

type Schema = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function options(prop: Schema): ChoiceOption[] | undefined {
  if (Array.isArray(prop.oneOf)) return (prop.oneOf as Schema[]).map((o) => ({ value: String(o.const), label: str(o.title) ?? String(o.const) }));
  if (Array.isArray(prop.enum)) {
    const names = Array.isArray(prop.enumNames) ? (prop.enumNames as unknown[]) : [];
    return (prop.enum as unknown[]).map((v, i) => ({ value: String(v), label: str(names[i]) ?? String(v) }));
  }
  return undefined;
}

/** The fields of a `requestedSchema` in property order. Properties of kinds the spec does not allow are skipped. */
export function formFields(requestedSchema: Schema): FormField[] {
  const props = (requestedSchema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(requestedSchema.required) ? (requestedSchema.required as string[]) : []);
  const fields: FormField[] = [];
  for (const [name, prop] of Object.entries(props)) {
    if (typeof prop !== 'object' || prop === null) continue;
    const base = { name, label: str(prop.title) ?? name, description: str(prop.description), required: required.has(name) };
    const choices = options(prop);
    if (prop.type === 'array') {
      const items = (prop.items ?? {}) as Schema;
      const itemChoices = Array.isArray(items.anyOf) ? (items.anyOf as Schema[]).map((o) => ({ value: String(o.const), label: str(o.title) ?? String(o.const) })) : options(items);
      if (!itemChoices) continue;
      const def = Array.isArray(prop.default) ? (prop.default as unknown[]).map(String) : undefined;
      fields.push({ ...base, kind: 'multi', options: itemChoices, default: def, minItems: num(prop.minItems), maxItems: num(prop.maxItems) });
    } else if (prop.type === 'string' && choices) {
      fields.push({ ...base, kind: 'choice', options: choices, default: str(prop.default) });
    } else if (prop.type === 'string') {
      fields.push({ ...base, kind: 'text', default: str(prop.default), format: str(prop.format), minLength: num(prop.minLength), maxLength: num(prop.maxLength) });
    } else if (prop.type === 'number' || prop.type === 'integer') {
      fields.push({ ...base, kind: 'number', integer: prop.type === 'integer', default: num(prop.default), minimum: num(prop.minimum), maximum: num(prop.maximum) });
    } else if (prop.type === 'boolean') {
      fields.push({ ...base, kind: 'boolean', default: typeof prop.default === 'boolean' ? prop.default : undefined });
    }
  }
  return fields;
}

const FORMATS: Record<string, { test: (s: string) => boolean; rule: string }> = {
  email: { test: (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), rule: 'an e-mail address' },
  uri: { test: (s) => URL.canParse(s), rule: 'an absolute URI' },
  date: { test: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)), rule: 'a date YYYY-MM-DD' },
  'date-time': { test: (s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), rule: 'a date-time such as 2025-01-31T12:00:00Z' },
};

/** Looks up a choice by its number (1-based), value or label. */
function pick(field: { options: ChoiceOption[] }, text: string): ChoiceOption | undefined {
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= field.options.length) return field.options[n - 1];
  const t = text.toLowerCase();
  return field.options.find((o) => o.value.toLowerCase() === t || o.label.toLowerCase() === t);
}

/**
 * Checks the typed `text` for `field`. Empty text takes the default, else leaves an optional field out
 * (and refuses a required one). Booleans take y/yes/true/n/no/false; choices a number, value or label;
 * multiple choices a comma-separated list of those.
 */
export function parseAnswer(field: FormField, text: string): FieldAnswer {
  const t = text.trim();
  if (t === '') {
    if (field.default !== undefined) return { ok: true, value: field.default };
    return field.required ? { ok: false, error: `${field.label} is required` } : { ok: true, value: undefined };
  }
  switch (field.kind) {
    case 'text': {
      if (field.minLength !== undefined && t.length < field.minLength) return { ok: false, error: `${field.label} needs at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && t.length > field.maxLength) return { ok: false, error: `${field.label} allows at most ${field.maxLength} characters` };
      const format = field.format ? FORMATS[field.format] : undefined;
      if (format && !format.test(t)) return { ok: false, error: `${field.label} must be ${format.rule}` };
      return { ok: true, value: t };
    }
    case 'number': {
      const n = Number(t);
      if (!Number.isFinite(n)) return { ok: false, error: `${field.label} must be a number` };
      if (field.integer && !Number.isInteger(n)) return { ok: false, error: `${field.label} must be a whole number` };
      if (field.minimum !== undefined && n < field.minimum) return { ok: false, error: `${field.label} must be at least ${field.minimum}` };
      if (field.maximum !== undefined && n > field.maximum) return { ok: false, error: `${field.label} must be at most ${field.maximum}` };
      return { ok: true, value: n };
    }
    case 'boolean': {
      const v = t.toLowerCase();
      if (['y', 'yes', 'true'].includes(v)) return { ok: true, value: true };
      if (['n', 'no', 'false'].includes(v)) return { ok: true, value: false };
      return { ok: false, error: `${field.label}: answer yes or no` };
    }
    case 'choice': {
      const o = pick(field, t);
      return o ? { ok: true, value: o.value } : { ok: false, error: `${field.label} must be one of ${field.options.map((x) => x.value).join(', ')}` };
    }
    case 'multi': {
      const chosen: string[] = [];
      for (const part of t.split(',').map((p) => p.trim()).filter(Boolean)) {
        const o = pick(field, part);
        if (!o) return { ok: false, error: `${field.label}: ${JSON.stringify(part)} is not one of ${field.options.map((x) => x.value).join(', ')}` };
        if (!chosen.includes(o.value)) chosen.push(o.value);
      }
      return checkCount(field, chosen);
    }
  }
}

/** Checks the number of chosen options of a multiple choice against minItems/maxItems. */
export function checkCount(field: Extract<FormField, { kind: 'multi' }>, chosen: string[]): FieldAnswer {
  if (field.minItems !== undefined && chosen.length < field.minItems) return { ok: false, error: `${field.label}: choose at least ${field.minItems}` };
  if (field.maxItems !== undefined && chosen.length > field.maxItems) return { ok: false, error: `${field.label}: choose at most ${field.maxItems}` };
  return { ok: true, value: chosen };
}
