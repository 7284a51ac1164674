import type { z } from 'zod';

/** One failed rule, with the field path (dot-separated) and a sentence a person can act on. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Turns a zod error into sentences that name the field and the rule, e.g.
 * "Service URL must be a full https:// address ...". `labels` maps paths to the names people see.
 */
export function describeProblems(error: z.ZodError, labels: Record<string, string> = {}): FieldProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    const label = labels[field] ?? (field || 'Request');
    const rule = ruleOf(issue);
    return { field, message: `${label} ${rule}.`.replace(/\.\.$/, '.') };
  });
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function ruleOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'unrecognized_keys':
      return `has unknown fields: ${issue.keys.join(', ')}`;
    default:
      // Our schemas give every other rule its own "must ..." message.
      return issue.message;
  }
}
