import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import defaultPartnersFile from './partners.default.json';

/**
 * Partners the sandbox knows, as the service would have them from onboarding. The file format is
 * documented in docs/protocol.md ("Sandbox partners file").
 */
const base = {
  partner_id: z.string().min(1),
  /** Where session_summary_generated notifications go; absent = no webhook for this partner. */
  notification_url: z.string().url().optional(),
  /** HMAC-SHA-256 key for the X-API-Key signature of notifications. */
  webhook_secret: z.string().min(16).optional(),
};

export const partnerSchema = z.discriminatedUnion('auth_model', [
  z.object({
    ...base,
    auth_model: z.literal('standard'),
    /** The partner's identity provider. "builtin" means the sandbox's own IdP at /idp. */
    jwks_url: z.string().min(1),
    issuer: z.string().min(1),
    audience: z.string().min(1),
  }),
  z.object({ ...base, auth_model: z.literal('bearer'), partner_token: z.string().min(16) }),
  z.object({ ...base, auth_model: z.literal('single_auth_token'), partner_token: z.string().min(16) }),
]);

export type Partner = z.infer<typeof partnerSchema>;
export type AuthModel = Partner['auth_model'];

export const partnersFileSchema = z.object({ partners: z.array(partnerSchema).min(1) });

/** "builtin" in a standard partner's jwks_url/issuer is replaced by the sandbox's own IdP. */
export const BUILTIN_IDP = 'builtin';

export async function loadPartnersFile(path: string): Promise<Partner[]> {
  const parsed = partnersFileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`${path} is not a valid partners file: ${problems}`);
  }
  return parsed.data.partners;
}

/** One partner of each model (sandbox/partners.default.json); tokens and secrets are demo values. */
export const DEFAULT_PARTNERS: Partner[] = partnersFileSchema.parse(defaultPartnersFile).partners;
