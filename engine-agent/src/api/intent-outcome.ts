/** Result of an intent: refused intents change nothing and say why. */
export type IntentOutcome = { ok: true } | { ok: false; reason: string };
