import { z } from 'zod';
import { encounterIdSchema } from './ids';

// protocol: Form filling (schema fields: id, label, type, options?, unit?)
export const FIELD_TYPES = ['string', 'number', 'boolean', 'enum', 'date'] as const;
export const formFieldSchema = z.object({
  id: z.string().min(1).max(100),
  label: z.string().min(1).max(200),
  type: z.enum(FIELD_TYPES, { message: 'must be one of string, number, boolean, enum, date' }),
  options: z.array(z.string().min(1).max(100)).max(50).optional(),
  unit: z.string().min(1).max(30).optional(),
});
export type FormField = z.infer<typeof formFieldSchema>;

export const formSchemaSchema = z.object({
  form_id: z.string().min(1).max(100),
  title: z.string().min(1).max(200),
  fields: z.array(formFieldSchema).min(1).max(100),
});
export type FormSchema = z.infer<typeof formSchemaSchema>;

export const formTemplateSchema = z.object({
  form_template_id: z.string(),
  title: z.string(),
  fields: z.array(formFieldSchema),
});
export type FormTemplate = z.infer<typeof formTemplateSchema>;

export const FORM_ITEM_RULE = 'must have exactly one of form_template_id or schema';

// protocol: Form filling (an item with both or neither key → 400 invalid_context_request)
export const formContextItemSchema = z
  .object({ form_template_id: z.string().min(1).max(100).optional(), schema: formSchemaSchema.optional() })
  .refine((item) => (item.form_template_id === undefined) !== (item.schema === undefined), {
    message: FORM_ITEM_RULE,
  });
export type FormContextItem = z.infer<typeof formContextItemSchema>;

/** PATCH merges by this key: the template id, or the custom schema's form_id. */
export function formItemKey(item: FormContextItem): string {
  return item.form_template_id !== undefined
    ? `template:${item.form_template_id}`
    : `schema:${item.schema?.form_id}`;
}

export const formContextRequestSchema = z.object({
  context: z.object({
    form_filling: z.object({ values: z.array(formContextItemSchema).max(20) }),
  }),
});
export type FormContextRequest = z.infer<typeof formContextRequestSchema>;

export const createFormSessionRequestSchema = z.object({ encounter_id: encounterIdSchema });
export const createFormSessionResponseSchema = z.object({ session_id: z.string() });

export const filledFieldSchema = z.object({
  id: z.string(),
  label: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  unit: z.string().optional(),
  evidence: z.array(z.string()).optional(),
});
export type FilledField = z.infer<typeof filledFieldSchema>;

export const filledFormSchema = z.object({
  form_id: z.string(),
  form_template_id: z.string().optional(),
  fields: z.array(filledFieldSchema),
});
export type FilledForm = z.infer<typeof filledFormSchema>;
export const structuredDataResponseSchema = z.object({ forms: z.array(filledFormSchema) });

// protocol: Form filling (feedback {rating 1-5, comment?, field_corrections?})
export const feedbackRequestSchema = z.object({
  rating: z.number().int().min(1, { message: 'must be 1 to 5' }).max(5, { message: 'must be 1 to 5' }),
  comment: z.string().max(4000, { message: 'must be at most 4,000 characters' }).optional(),
  field_corrections: z
    .array(
      z.object({ id: z.string().min(1), value: z.union([z.string(), z.number(), z.boolean(), z.null()]) }),
    )
    .max(200)
    .optional(),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

export const templatesResponseSchema = z.object({ templates: z.array(formTemplateSchema) });
