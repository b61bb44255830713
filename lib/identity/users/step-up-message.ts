/** What a refused action says when it needs step-up (client components compare against it: no server imports). */
export const STEP_UP_MESSAGE = "Confirm it's you with your second factor first.";
