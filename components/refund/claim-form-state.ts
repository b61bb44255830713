/** Where the claim form is: entering the address (and code), with why it was refused, or confirming it. */
export type ClaimFormState = { step: "enter" | "confirm"; address: string; code?: string; error?: string };

export const START: ClaimFormState = { step: "enter", address: "" };
