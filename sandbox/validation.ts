import type { z } from 'zod';
import { ServiceError, type ErrorId } from './errors';

/**
 * Parses a request body with a zod schema; unknown fields are ignored (zod's default strip), and
 * a failure becomes a 400 whose prose names the field and the rule.
 */
export function parseBody<T extends z.ZodType>(
  schema: T,
  body: unknown,
  id: ErrorId = 'invalid_request',
): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || 'body';
    return `${field} ${issue.message}`;
  });
  throw new ServiceError(400, id, problems.join('; '));
}
