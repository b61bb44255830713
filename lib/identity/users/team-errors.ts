/** A team change refused for a reason the owner can act on (shown next to the control). */
export class TeamRuleError extends Error {}

/** No such member (or invitation) in this merchant: another merchant's is treated as absent. */
export class TeamNotFoundError extends Error {}
