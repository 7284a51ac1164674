/**
 * What Finished does while the check (issue 38) still flags values in the note: nothing ('off'),
 * ask once, naming the count ('ask', the default), or refuse until each is edited or marked
 * Checked ('required'). A setting, and a policy key IT can set and lock.
 */
export const CHECKS_BEFORE_FINISH_MODES = ['off', 'ask', 'required'] as const;
export type ChecksBeforeFinish = (typeof CHECKS_BEFORE_FINISH_MODES)[number];
