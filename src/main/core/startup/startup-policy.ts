import type { Logger } from '../ports';
import { readMachinePolicy, type MachinePolicyPorts } from './machine-policy';
import { readPolicy, type PolicyReading } from './policy-file';
import { isNetworkOrUrl, LOCAL_PATH_RULE } from './local-path';

/**
 * Which policy the app starts with. Only IT can set policy in an installed app: it reads the
 * machine places alone (machine-policy.ts), and ignores `--policy FILE` and AMBIENT_SCRIBE_POLICY,
 * which any user (or anything running as them) can set, unless the machine policy itself says
 * `allowLocalPolicy: true`. Unpackaged runs and browser mode are for developers and tests: there
 * the local file comes first, then the machine places.
 */

export interface StartupPolicyOptions {
  /** The `--policy` value, already taken from the command line. */
  argument?: string | undefined;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Electron's app.isPackaged; browser mode passes false. */
  packaged: boolean;
  /** Where an ignored `--policy` or AMBIENT_SCRIBE_POLICY is reported. */
  log: Logger;
  /** Tests' file system and command runner. */
  ports?: Partial<MachinePolicyPorts>;
}

/** A policy path given to this launch, and which of the two ways it came. */
interface LocalPolicy {
  path: string;
  origin: '--policy' | 'AMBIENT_SCRIBE_POLICY';
}

export async function readStartupPolicy(options: StartupPolicyOptions): Promise<PolicyReading> {
  const given = localPolicies(options.argument, options.env);
  const local = given[0];
  if (!options.packaged) return local ? readLocalPolicy(local, options) : readMachinePolicy(options);

  const machine = await readMachinePolicy(options);
  if (!local) return machine;
  if (machine.kind === 'policy' && machine.policy.allowLocalPolicy === true) {
    options.log.info('policy: the machine policy allows a local one; it is read instead', {
      from: local.origin,
      machinePolicy: machine.file,
    });
    return readLocalPolicy(local, options);
  }
  // Which, never the value: the path is the user's, and the log is read by others.
  options.log.warn('policy: ignored in an installed app (the machine policy does not set allowLocalPolicy)', {
    ignored: given.map((g) => g.origin),
  });
  return machine;
}

function localPolicies(argument: string | undefined, env: NodeJS.ProcessEnv): LocalPolicy[] {
  return [
    ...(argument ? [{ path: argument, origin: '--policy' as const }] : []),
    ...(env.AMBIENT_SCRIBE_POLICY
      ? [{ path: env.AMBIENT_SCRIBE_POLICY, origin: 'AMBIENT_SCRIBE_POLICY' as const }]
      : []),
  ];
}

async function readLocalPolicy(
  local: LocalPolicy,
  options: Pick<StartupPolicyOptions, 'ports'>,
): Promise<PolicyReading> {
  if (isNetworkOrUrl(local.path))
    return {
      kind: 'invalid',
      file: local.path,
      problems: [{ key: local.origin, rule: LOCAL_PATH_RULE }],
    };
  const read = options.ports?.fs?.readFile;
  return readPolicy([{ path: local.path, required: true }], read);
}
