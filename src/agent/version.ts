/** Version this agent reports in every NodeReport and Static payload (strict SemVer, no `v`). */
export const AGENT_VERSION = '0.3.0';
