import type { RefObject } from 'react';
import { SPECIALTIES } from '../../../shared/service';
import { AUTH_MODELS, type AuthModel, type Settings } from '../../../shared/settings';
import { Field } from '../Field';
import { PartnerTokenField } from './PartnerTokenField';
import type { DraftFieldsProps } from './setup-draft';

const AUTH_MODEL_WORDS: Record<AuthModel, string> = {
  standard: 'Standard: clinicians sign in with the organisation’s identity provider',
  bearer: 'Bearer: one partner token for all providers',
  single_auth_token: 'Single auth token: partner token plus provider ID on every call',
};

/**
 * Who the app is at the service: the partner, how it signs in (the identity provider of a
 * standard partner, or the partner token of the others) and the provider it registers.
 */
export function PartnerFields({
  draft,
  update,
  problems,
  tokenInput,
  onTokenInput,
}: DraftFieldsProps & {
  /** The uncontrolled partner token field, read by the form on Save. */
  tokenInput: RefObject<HTMLInputElement | null>;
  onTokenInput: () => void;
}) {
  const isUrl = draft.serviceKind === 'url';
  const standard = draft.authModel === 'standard';
  return (
    <fieldset>
      <legend>Partner and provider</legend>
      {isUrl ? (
        <Field
          label="Partner ID"
          hint="Issued by the service at onboarding."
          problem={problems.partnerId}
          setting="partnerId"
        >
          {(props) => (
            <input
              {...props}
              value={draft.partnerId}
              onChange={(e) => update({ partnerId: e.target.value })}
            />
          )}
        </Field>
      ) : (
        <p className="hint field">The sandbox signs in as its demo partner for the sign-in model below.</p>
      )}

      <Field label="Sign-in model" problem={problems.authModel} setting="authModel">
        {(props) => (
          <select
            {...props}
            value={draft.authModel}
            onChange={(e) => update({ authModel: e.target.value as AuthModel })}
          >
            {AUTH_MODELS.map((model) => (
              <option key={model} value={model}>
                {AUTH_MODEL_WORDS[model]}
              </option>
            ))}
          </select>
        )}
      </Field>

      {standard && !isUrl && (
        <p className="hint field">The sandbox’s own sign-in page is used; it asks only for a user name.</p>
      )}
      {standard && isUrl && (
        <>
          <Field
            label="Identity provider (issuer) URL"
            hint="Your organisation’s OpenID Connect issuer, from your IT admin."
            problem={problems.oidcIssuer}
            setting="oidcIssuer"
          >
            {(props) => (
              <input
                {...props}
                type="url"
                inputMode="url"
                placeholder="https://login.example.org"
                value={draft.oidcIssuer}
                onChange={(e) => update({ oidcIssuer: e.target.value })}
              />
            )}
          </Field>
          <Field
            label="Client ID at the identity provider"
            hint="This app’s client ID there, from your IT admin."
            problem={problems.oidcClientId}
            setting="oidcClientId"
          >
            {(props) => (
              <input
                {...props}
                value={draft.oidcClientId}
                onChange={(e) => update({ oidcClientId: e.target.value })}
              />
            )}
          </Field>
        </>
      )}
      {!standard && isUrl && <PartnerTokenField inputRef={tokenInput} onInput={onTokenInput} />}

      <Field
        label="Provider ID"
        hint={
          standard
            ? 'Not needed: your identity comes from your sign-in.'
            : isUrl
              ? 'Your ID in the partner’s system, as agreed at onboarding.'
              : 'Optional in the sandbox (demo-clinician when empty).'
        }
        problem={problems.providerId}
        setting="providerId"
      >
        {(props) => (
          <input
            {...props}
            value={draft.providerId}
            onChange={(e) => update({ providerId: e.target.value })}
          />
        )}
      </Field>
      <Field
        label="Provider name"
        hint="Sent once, when the service registers you."
        problem={problems.providerName}
      >
        {(props) => (
          <input
            {...props}
            autoComplete="name"
            value={draft.providerName}
            onChange={(e) => update({ providerName: e.target.value })}
          />
        )}
      </Field>
      <Field label="Organisation ID" problem={problems.providerOrgId}>
        {(props) => (
          <input
            {...props}
            value={draft.providerOrgId}
            onChange={(e) => update({ providerOrgId: e.target.value })}
          />
        )}
      </Field>
      <Field label="Specialty" problem={problems.providerSpecialty}>
        {(props) => (
          <select
            {...props}
            value={draft.providerSpecialty}
            onChange={(e) => update({ providerSpecialty: e.target.value as Settings['providerSpecialty'] })}
          >
            {SPECIALTIES.map((specialty) => (
              <option key={specialty} value={specialty}>
                {specialty
                  .replaceAll('_', ' ')
                  .toLowerCase()
                  .replace(/^./, (c) => c.toUpperCase())}
              </option>
            ))}
          </select>
        )}
      </Field>
    </fieldset>
  );
}
